import { MessageResponseSchema } from '@kestrel/contracts';
import { NotificationListResponseSchema } from '@kestrel/contracts/account';
import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime, useLiveEvent } from '@kestrel/shared-runtime/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** Under ['notifications'], as the account page's list: a change on either side refreshes both */
const bellKey = ['notifications', 'bell'] as const;

/** How many of the newest notices the bell holds (grouped, a minute of fills is one line) */
export const BELL_NOTICES = 50;

/** The newest notices and the unread count; a `notification` push from the server refetches them */
export function useBellNotifications() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  useLiveEvent('notification', () => void queryClient.invalidateQueries({ queryKey: ['notifications'] }));
  return useQuery({
    queryKey: bellKey,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.get('/api/v1/notifications', {
          query: { limit: BELL_NOTICES },
          schema: NotificationListResponseSchema,
          signal,
        }),
      ).data,
  });
}

/** Marks the given notices read (every one when `ids` is undefined); never retried, the lists refetched after */
export function useMarkNotificationsRead() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    retry: false,
    mutationFn: async (ids: readonly string[] | undefined) => {
      if (ids === undefined) {
        unwrap(await api.post('/api/v1/notifications/read', {}, { schema: MessageResponseSchema }));
        return;
      }
      for (const id of ids) {
        unwrap(
          await api.post(
            `/api/v1/notifications/${encodeURIComponent(id)}/read`,
            {},
            { schema: MessageResponseSchema },
          ),
        );
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
}
