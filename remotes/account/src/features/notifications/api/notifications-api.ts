import { MessageResponseSchema } from '@kestrel/contracts';
import {
  CreatedWebhookResponseSchema,
  type CreateWebhookRequestInput,
  NotificationListResponseSchema,
  WebhookDeliveriesResponseSchema,
  WebhookDeliveryResponseSchema,
  WebhookListResponseSchema,
} from '@kestrel/contracts/account';
import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime, useLiveEvent } from '@kestrel/shared-runtime/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
  webhooks: () => [...notificationKeys.all, 'webhooks'] as const,
  deliveries: (id: string) => [...notificationKeys.all, 'deliveries', id] as const,
  telegram: () => [...notificationKeys.all, 'telegram'] as const,
  telegramCommands: (limit: number) => [...notificationKeys.telegram(), 'commands', limit] as const,
};

/** The in-app list; a `notification` push from the server refetches it */
export function useNotifications() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  useLiveEvent(
    'notification',
    () => void queryClient.invalidateQueries({ queryKey: notificationKeys.list() }),
  );
  return useQuery({
    queryKey: notificationKeys.list(),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.get('/api/v1/notifications', {
          query: { limit: 50 },
          schema: NotificationListResponseSchema,
          signal,
        }),
      ).data,
  });
}

export function useMarkAllRead() {
  const { api } = useKestrelRuntime();
  return useNotificationMutation(async (_: undefined) =>
    unwrap(await api.post('/api/v1/notifications/read', {}, { schema: MessageResponseSchema })),
  );
}

export function useWebhooks() {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: notificationKeys.webhooks(),
    queryFn: async ({ signal }) =>
      unwrap(await api.get('/api/v1/notifications/webhooks', { schema: WebhookListResponseSchema, signal }))
        .data,
  });
}

export function useWebhookDeliveries(id: string, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: notificationKeys.deliveries(id),
    enabled,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.get(`/api/v1/notifications/webhooks/${encodeURIComponent(id)}/deliveries`, {
          schema: WebhookDeliveriesResponseSchema,
          signal,
        }),
      ).data,
  });
}

/** Never retried (a webhook must not be added twice, a test not sent twice); the list refetched after */
export function useNotificationMutation<TInput, TOutput>(fn: (input: TInput) => Promise<TOutput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useCreateWebhook() {
  const { api } = useKestrelRuntime();
  return useNotificationMutation(
    async (body: CreateWebhookRequestInput) =>
      unwrap(await api.post('/api/v1/notifications/webhooks', body, { schema: CreatedWebhookResponseSchema }))
        .data,
  );
}

export function useSendTest() {
  const { api } = useKestrelRuntime();
  return useNotificationMutation(
    async (id: string) =>
      unwrap(
        await api.post(
          `/api/v1/notifications/webhooks/${encodeURIComponent(id)}/test`,
          {},
          { schema: WebhookDeliveryResponseSchema },
        ),
      ).data,
  );
}

export function useDeleteWebhook() {
  const { api } = useKestrelRuntime();
  return useNotificationMutation(async (id: string) =>
    unwrap(
      await api.delete(`/api/v1/notifications/webhooks/${encodeURIComponent(id)}`, {
        schema: MessageResponseSchema,
      }),
    ),
  );
}
