import { type Bot, BotResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { botPath } from './bot-keys';
import { invalidateBots } from './invalidate-bots';

/**
 * What a bot's buttons do; each is a POST (or DELETE) on the bot, answered with the bot as it is now.
 * `start-shared`: a live start the trader confirmed on a symbol the account already trades (a position, orders or
 * another live bot there: the server refused the plain start with `SYMBOL_SHARED`)
 */
export type BotAction = 'start' | 'start-shared' | 'pause' | 'stop' | 'delete';

/** The server's refusal of a live start on a symbol the account already trades (one-way mode: one position) */
export const SYMBOL_SHARED = 'SYMBOL_SHARED';

export async function startBot(api: ApiClient, id: string, sharePosition = false): Promise<Bot> {
  return unwrap(
    await api.post(botPath(id, '/start'), sharePosition ? { sharePosition: true } : {}, {
      schema: BotResponseSchema,
    }),
  ).data;
}

/** Its orders stay, it places no new one; a start resumes it */
export async function pauseBot(api: ApiClient, id: string): Promise<Bot> {
  return unwrap(await api.post(botPath(id, '/pause'), {}, { schema: BotResponseSchema })).data;
}

export async function stopBot(api: ApiClient, id: string): Promise<Bot> {
  return unwrap(await api.post(botPath(id, '/stop'), {}, { schema: BotResponseSchema })).data;
}

/** Answered 204 with no body */
export async function deleteBot(api: ApiClient, id: string): Promise<void> {
  unwrap(await api.delete(botPath(id)));
}

/**
 * Start, pause, stop or delete one bot. Never retried by the client: a start sent twice is harmless to the server (it
 * holds a lease) but the user must see the first answer, not a second attempt's
 */
export function useBotAction() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: BotAction }): Promise<void> => {
      if (action === 'start' || action === 'start-shared') await startBot(api, id, action === 'start-shared');
      else if (action === 'pause') await pauseBot(api, id);
      else if (action === 'stop') await stopBot(api, id);
      else await deleteBot(api, id);
    },
    retry: false,
    onSettled: () => invalidateBots(queryClient),
  });
}
