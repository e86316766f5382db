import type { CandleNotice, KlineInterval, MarkPriceNotice, TickerNotice } from '@kestrel/contracts';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { LiveStatus } from '../live/live-data';
import { useKestrelRuntime } from './hooks';
import { useObservable } from './use-observable';

const EMPTY = new Map<never, never>();

/**
 * Renders a frame's pushes in that frame. The live data hands them over in `requestAnimationFrame`, before the paint;
 * a plain state update there is left by React to a task of its own, which runs after the paint, so the price would
 * show a frame later (and wait behind whatever else is queued on a busy page)
 */
function inThisFrame<T>(set: (value: T) => void): (value: T) => void {
  return (value) => flushSync(() => set(value));
}

/** `live` while pushes flow, `paused` while the socket is down: show "live data paused" (queries poll meanwhile) */
export function useLiveStatus(): LiveStatus {
  const { live } = useKestrelRuntime();
  return useObservable(live.status$, live.status);
}

/**
 * The latest ticker push per symbol, re-rendering at most once per animation frame. Watches the symbols while
 * mounted (the runtime merges every component's watch into one socket subscription). Symbols without a push yet
 * are absent: show the REST snapshot for them
 */
export function useLiveTickers(symbols: readonly string[]): ReadonlyMap<string, TickerNotice> {
  const { live } = useKestrelRuntime();
  const key = [...new Set(symbols.map((s) => s.toUpperCase()))].sort().join(',');
  const [latest, setLatest] = useState<ReadonlyMap<string, TickerNotice>>(EMPTY);
  useEffect(() => {
    setLatest(EMPTY);
    if (key === '') return;
    const subscription = live.tickers$(key.split(',')).subscribe(inThisFrame(setLatest));
    return () => subscription.unsubscribe();
  }, [live, key]);
  return latest;
}

/** The latest mark-price push per symbol, as {@link useLiveTickers} */
export function useLiveMarkPrices(symbols: readonly string[]): ReadonlyMap<string, MarkPriceNotice> {
  const { live } = useKestrelRuntime();
  const key = [...new Set(symbols.map((s) => s.toUpperCase()))].sort().join(',');
  const [latest, setLatest] = useState<ReadonlyMap<string, MarkPriceNotice>>(EMPTY);
  useEffect(() => {
    setLatest(EMPTY);
    if (key === '') return;
    const subscription = live.markPrices$(key.split(',')).subscribe(inThisFrame(setLatest));
    return () => subscription.unsubscribe();
  }, [live, key]);
  return latest;
}

/**
 * Calls `onCandle` for every candle push of (symbol, interval) while mounted: the forming bar (at most 4 a second)
 * and the bar that closed (`closed: true`). Hand it to the chart (`series.update`); no re-render. No symbol: no watch
 */
export function useLiveCandles(
  symbol: string | undefined,
  interval: KlineInterval,
  onCandle: (candle: CandleNotice) => void,
): void {
  const { live } = useKestrelRuntime();
  // The latest handler without resubscribing on every render
  const handler = useRef(onCandle);
  handler.current = onCandle;
  useEffect(() => {
    if (!symbol) return;
    const subscription = live.candles$(symbol, interval).subscribe((c) => handler.current(c));
    return () => subscription.unsubscribe();
  }, [live, symbol, interval]);
}
