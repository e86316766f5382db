import { useLiveEvent } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { historyKeys } from './history-keys';

/**
 * The server imports on a read only when its last import is over 10 s old, so the refetch an order notice causes
 * at once may come back without the fill. One more refetch of the history 11 s after the last order notice gets it
 * (one per burst of notices, not one per notice)
 */
export const LATE_FILL_REFETCH_MS = 11_000;

export function useLateFills(): void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useLiveEvent('order', () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => void client.invalidateQueries({ queryKey: historyKeys.all }),
      LATE_FILL_REFETCH_MS,
    );
  });
  useEffect(() => () => clearTimeout(timer.current), []);
}
