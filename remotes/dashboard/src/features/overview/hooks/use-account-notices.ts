import { useLiveEvent } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/** Notices arriving within this window are answered by one refetch of each account query */
export const ACCOUNT_NOTICE_COALESCE_MS = 250;

/** The account's query prefixes on this page: the cards (`dashboard`) and positions, orders, fills (`futures`) */
const ACCOUNT_PREFIXES = [['dashboard'], ['futures']] as const;

/**
 * Order, position and balance pushes mark the account's queries stale. A fill sends several notices at once
 * (order, position, balance), so they are gathered for a moment and answered with one refetch per query.
 */
export function useAccountNotices(): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  const onNotice = () => {
    if (timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      for (const queryKey of ACCOUNT_PREFIXES)
        void queryClient.invalidateQueries({ queryKey: [...queryKey] });
    }, ACCOUNT_NOTICE_COALESCE_MS);
  };
  useLiveEvent('order', onNotice);
  useLiveEvent('position', onNotice);
  useLiveEvent('balance', onNotice);
}
