import { type SignalHook, SignalHookCreatedResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { botKeys, botPath } from './bot-keys';

/**
 * Makes the bot's webhook, or a new URL and secret for it (the old ones stop at once). A live bot's needs the
 * password given in the last 5 minutes: the API client asks for it and sends the call again by itself
 */
export async function createSignalHook(
  api: ApiClient,
  id: string,
): Promise<{ hook: SignalHook; secret: string }> {
  return unwrap(await api.post(botPath(id, '/signal-hook'), {}, { schema: SignalHookCreatedResponseSchema }))
    .data;
}

/** The answer's secret is the caller's to show once: only the hook goes into the cache */
export function useCreateSignalHook(id: string) {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createSignalHook(api, id),
    // Sent twice, the second answer would replace the secret the user is copying from the first
    retry: false,
    onSuccess: ({ hook }) => queryClient.setQueryData(botKeys.signalHook(id), hook),
  });
}
