import { type Bot, BotResponseSchema, type CreateBotRequestInput } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateBots } from './invalidate-bots';

/** Stores a stopped bot; the server answers 400 with a `detail` naming the field and the rule it breaks */
export async function createBot(api: ApiClient, request: CreateBotRequestInput): Promise<Bot> {
  return unwrap(await api.post('/api/v1/agents', request, { schema: BotResponseSchema })).data;
}

export function useCreateBot() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateBotRequestInput) => createBot(api, request),
    // A lost answer must not make a second bot: the user sees the error and the list, then decides
    retry: false,
    onSuccess: () => invalidateBots(queryClient),
  });
}
