import type { TickerNotice } from '@kestrel/contracts';
import { useKestrelRuntime, useLiveEvent } from '@kestrel/shared-runtime/react';
import { useEffect, useRef, useState } from 'react';

/** The account streams the dashboard listens to beside the market pushes of its watch list */
const DASHBOARD_STREAMS = ['ticker', 'markPrice', 'order', 'position', 'balance', 'bot'] as const;

/**
 * The latest ticker push per symbol of the watch list. The page's stream choice (`streams/subscribe`) is made
 * here: market pushes for these symbols, plus the account's own streams. Pushes are gathered and applied once per
 * frame, so 50 symbols streaming cost one render per frame, not one per push.
 */
export function useTickerFeed(symbols: readonly string[]): Readonly<Record<string, TickerNotice>> {
  const { bus } = useKestrelRuntime();
  const [latest, setLatest] = useState<Readonly<Record<string, TickerNotice>>>({});
  const pending = useRef<Record<string, TickerNotice>>({});
  const frame = useRef<number | null>(null);
  const key = symbols.join(',');

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the list's content
  useEffect(() => {
    if (symbols.length === 0) return;
    bus.subscribe({ streams: [...DASHBOARD_STREAMS], symbols: [...symbols] }).catch(() => {
      // The server's default watch list applies; REST polling still keeps the table current
    });
  }, [bus, key]);

  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  useLiveEvent('ticker', (notice) => {
    const previous = pending.current[notice.symbol];
    if (previous && previous.time > notice.time) return;
    pending.current[notice.symbol] = notice;
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const batch = pending.current;
      pending.current = {};
      setLatest((current) => ({ ...current, ...batch }));
    });
  });
  return latest;
}
