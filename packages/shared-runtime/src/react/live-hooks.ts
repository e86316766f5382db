import type {
  BookNotice,
  CandleNotice,
  KlineInterval,
  MarkPriceNotice,
  TickerNotice,
  TradesNotice,
} from '@kestrel/contracts';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Observable } from 'rxjs';
import type { LiveData, LiveStatus } from '../live/live-data';
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
 * The latest push per symbol of one per-symbol stream of the live data, re-rendering at most once per animation
 * frame. The symbols are upper-cased, deduplicated and sorted into one key, so a new array of the same symbols on
 * every render keeps the subscription. `watch` must be stable (a module-level function): it is an effect dependency
 */
function useLatestPerSymbol<T>(
  symbols: readonly string[],
  watch: (live: LiveData, symbols: readonly string[]) => Observable<ReadonlyMap<string, T>>,
): ReadonlyMap<string, T> {
  const { live } = useKestrelRuntime();
  const key = [...new Set(symbols.map((s) => s.toUpperCase()))].sort().join(',');
  const [latest, setLatest] = useState<ReadonlyMap<string, T>>(EMPTY);
  useEffect(() => {
    setLatest(EMPTY);
    if (key === '') return;
    const subscription = watch(live, key.split(',')).subscribe(inThisFrame(setLatest));
    return () => subscription.unsubscribe();
  }, [live, key, watch]);
  return latest;
}

const tickers = (live: LiveData, symbols: readonly string[]) => live.tickers$(symbols);
const markPrices = (live: LiveData, symbols: readonly string[]) => live.markPrices$(symbols);

/**
 * The latest ticker push per symbol, re-rendering at most once per animation frame. Watches the symbols while
 * mounted (the runtime merges every component's watch into one socket subscription). Symbols without a push yet
 * are absent: show the REST snapshot for them
 */
export function useLiveTickers(symbols: readonly string[]): ReadonlyMap<string, TickerNotice> {
  return useLatestPerSymbol(symbols, tickers);
}

/** The latest mark-price push per symbol, as {@link useLiveTickers} */
export function useLiveMarkPrices(symbols: readonly string[]): ReadonlyMap<string, MarkPriceNotice> {
  return useLatestPerSymbol(symbols, markPrices);
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

/**
 * The symbol's order book as the server pushes it (at most 10 a second), re-rendering at most once per animation
 * frame; undefined until the first push (show the REST book meanwhile). Watches the book while mounted
 */
export function useLiveBook(symbol: string | undefined): BookNotice | undefined {
  const { live } = useKestrelRuntime();
  const [latest, setLatest] = useState<BookNotice | undefined>(undefined);
  useEffect(() => {
    setLatest(undefined);
    if (!symbol) return;
    const subscription = live.book$(symbol).subscribe(inThisFrame(setLatest));
    return () => subscription.unsubscribe();
  }, [live, symbol]);
  return latest;
}

/** Calls `onTrades` with each batch of the symbol's trades while mounted (no re-render of its own) */
export function useLiveTrades(symbol: string | undefined, onTrades: (notice: TradesNotice) => void): void {
  const { live } = useKestrelRuntime();
  const handler = useRef(onTrades);
  handler.current = onTrades;
  useEffect(() => {
    if (!symbol) return;
    const subscription = live.trades$(symbol).subscribe((t) => handler.current(t));
    return () => subscription.unsubscribe();
  }, [live, symbol]);
}
