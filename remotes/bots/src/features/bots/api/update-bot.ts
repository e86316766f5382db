import { type Bot, BotResponseSchema, type UpdateBotRequest } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { botPath } from './bot-keys';
import { invalidateBots } from './invalidate-bots';

/** Changes a stopped bot (a running one is refused with 409) */
export async function updateBot(api: ApiClient, id: string, request: UpdateBotRequest): Promise<Bot> {
  return unwrap(
    await api.request({ method: 'PATCH', path: botPath(id), body: request, schema: BotResponseSchema }),
  ).data;
}

export function useUpdateBot() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, request }: { id: string; request: UpdateBotRequest }) => updateBot(api, id, request),
    retry: false,
    onSuccess: () => invalidateBots(queryClient),
  });
}
