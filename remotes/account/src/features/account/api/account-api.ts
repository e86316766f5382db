import { MeResponseSchema, MessageResponseSchema, SessionListResponseSchema } from '@kestrel/contracts';
import {
  AccountEventsResponseSchema,
  type AccountSettingsInput,
  AccountSettingsResponseSchema,
  type ChangePasswordRequest,
  ChangePasswordResponseSchema,
  type DeleteAccountRequest,
  ProfileResponseSchema,
  RevokeOtherSessionsResponseSchema,
  type UpdateProfileRequest,
} from '@kestrel/contracts/account';
import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** Query keys of the account API, broad to narrow: every change refetches the whole account (the audit moves too) */
export const accountKeys = {
  all: ['account'] as const,
  me: () => [...accountKeys.all, 'me'] as const,
  sessions: () => [...accountKeys.all, 'sessions'] as const,
  events: () => [...accountKeys.all, 'events'] as const,
  settings: () => [...accountKeys.all, 'settings'] as const,
};

export function useMe() {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: accountKeys.me(),
    queryFn: async ({ signal }) =>
      unwrap(await api.get('/api/v1/auth/me', { schema: MeResponseSchema, signal })).user,
  });
}

export function useSessions() {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: accountKeys.sessions(),
    queryFn: async ({ signal }) =>
      unwrap(await api.get('/api/v1/auth/sessions', { schema: SessionListResponseSchema, signal })).sessions,
  });
}

export function useAccountEvents() {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: accountKeys.events(),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.get('/api/v1/account/events', {
          query: { limit: 50 },
          schema: AccountEventsResponseSchema,
          signal,
        }),
      ).data,
  });
}

export function useAccountSettings() {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: accountKeys.settings(),
    queryFn: async ({ signal }) =>
      unwrap(await api.get('/api/v1/account/settings', { schema: AccountSettingsResponseSchema, signal }))
        .data,
  });
}

/** A mutation of the account: never retried (a password change must not be sent twice), then the account refetched */
function useAccountMutation<TInput, TOutput>(fn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useUpdateProfile() {
  const { api, session } = useKestrelRuntime();
  return useAccountMutation(async (body: UpdateProfileRequest) => {
    const user = unwrap(
      await api.request({
        method: 'PATCH',
        path: '/api/v1/account/profile',
        body,
        schema: ProfileResponseSchema,
      }),
    ).data;
    // The shell's user menu reads the stored user: bring it up to date
    await session.me();
    return user;
  });
}

export function useChangePassword() {
  const { api } = useKestrelRuntime();
  return useAccountMutation(
    async (body: ChangePasswordRequest) =>
      unwrap(await api.post('/api/v1/account/password', body, { schema: ChangePasswordResponseSchema })).data,
  );
}

export function useRevokeSession() {
  const { api } = useKestrelRuntime();
  return useAccountMutation(async (id: string) =>
    unwrap(
      await api.delete(`/api/v1/auth/sessions/${encodeURIComponent(id)}`, { schema: MessageResponseSchema }),
    ),
  );
}

export function useRevokeOtherSessions() {
  const { api } = useKestrelRuntime();
  return useAccountMutation(
    async (_: undefined) =>
      unwrap(await api.delete('/api/v1/account/sessions', { schema: RevokeOtherSessionsResponseSchema }))
        .data,
  );
}

export function useUpdateAccountSettings() {
  const { api } = useKestrelRuntime();
  return useAccountMutation(
    async (body: AccountSettingsInput) =>
      unwrap(
        await api.request({
          method: 'PUT',
          path: '/api/v1/account/settings',
          body,
          schema: AccountSettingsResponseSchema,
        }),
      ).data,
  );
}

/** Deletes the account; on success this browser is signed out too (the server has ended every session) */
export function useDeleteAccount() {
  const { api, session } = useKestrelRuntime();
  return useMutation({
    mutationFn: async (body: DeleteAccountRequest) => {
      unwrap(await api.post('/api/v1/account/delete', body, { schema: MessageResponseSchema }));
      session.clear();
    },
    retry: false,
  });
}
