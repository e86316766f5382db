import type { QueryClient } from '@tanstack/react-query';
import { botKeys } from './bot-keys';

/** After any change to a bot: its list, statuses, logs and the summary are read again */
export function invalidateBots(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: botKeys.all }),
    queryClient.invalidateQueries({ queryKey: botKeys.summary() }),
  ]).then(() => undefined);
}
