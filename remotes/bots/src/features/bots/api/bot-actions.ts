import { type Bot, BotResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { botPath } from './bot-keys';
import { invalidateBots } from './invalidate-bots';

/** What a bot's buttons do; each is a POST (or DELETE) on the bot, answered with the bot as it is now */
export type BotAction = 'start' | 'stop' | 'delete';

export async function startBot(api: ApiClient, id: string): Promise<Bot> {
  return unwrap(await api.post(botPath(id, '/start'), {}, { schema: BotResponseSchema })).data;
}

export async function stopBot(api: ApiClient, id: string): Promise<Bot> {
  return unwrap(await api.post(botPath(id, '/stop'), {}, { schema: BotResponseSchema })).data;
}

/** Answered 204 with no body */
export async function deleteBot(api: ApiClient, id: string): Promise<void> {
  unwrap(await api.delete(botPath(id)));
}

/**
 * Start, stop or delete one bot. Never retried by the client: a start sent twice is harmless to the server (it
 * holds a lease) but the user must see the first answer, not a second attempt's
 */
export function useBotAction() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: BotAction }): Promise<void> => {
      if (action === 'start') await startBot(api, id);
      else if (action === 'stop') await stopBot(api, id);
      else await deleteBot(api, id);
    },
    retry: false,
    onSettled: () => invalidateBots(queryClient),
  });
}
