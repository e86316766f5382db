import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { botKeys, botPath } from './bot-keys';

/** Removes the bot's webhook: its URL stops taking signals; those received stay listed */
export function useDeleteSignalHook(id: string) {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      unwrap(await api.delete(botPath(id, '/signal-hook')));
    },
    retry: false,
    onSuccess: () => queryClient.setQueryData(botKeys.signalHook(id), null),
    // Another tab may have made one meanwhile: the server says what is there now
    onSettled: () => queryClient.invalidateQueries({ queryKey: botKeys.signalHook(id) }),
  });
}
