import type { FuturesOrder, FuturesPosition, KlineInterval } from '@kestrel/contracts';
import { Button, NativeSelect, Spinner, ToggleGroup } from '@kestrel/ui';
import { lazy, Suspense, useMemo, useSyncExternalStore } from 'react';
import { useActiveOrders } from '../api/get-active-orders';
import { useActivePositions } from '../api/get-active-positions';
import { useSymbolTrades } from '../api/get-symbol-trades';
import { useCandles } from '../hooks/use-candles';
import { type HeldMove, type MovableLine, shownMove } from '../lib/line-drag';
import { fillMarkers, orderLines, positionLines } from '../lib/overlays';
import { MarkLine } from './mark-line';
import type { LineMove, MovedLine } from './use-line-drag';

// The chart library loads with the chart, after the rest of the page
const PriceChart = lazy(() => import('./price-chart'));

/** The intervals offered: scalping to swing; the API takes any of Binance's */
export const CHART_INTERVALS: readonly KlineInterval[] = ['1m', '5m', '15m', '1h', '4h', '1d'];

const PHONE = '(max-width: 639px)';
const PHONE_HEIGHT = 300;
const DESKTOP_HEIGHT = 420;
function subscribePhone(onChange: () => void) {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
/** Shorter on phones, so the chart and the market watch below it both fit a screen */
function useChartHeight(): number {
  const phone = useSyncExternalStore(
    subscribePhone,
    () => window.matchMedia(PHONE).matches,
    () => false,
  );
  return phone ? PHONE_HEIGHT : DESKTOP_HEIGHT;
}

export interface ChartPanelProps<T extends MovableLine = MovableLine> {
  symbols: readonly string[];
  symbol: string;
  onSymbolChange: (symbol: string) => void;
  interval: KlineInterval;
  onIntervalChange: (interval: KlineInterval) => void;
  /** Decimals of the symbol's prices, once its rules are known */
  pricePrecision: number | undefined;
  /** An exchange account is connected: the position, orders and fills are drawn */
  accountConnected: boolean;
  /** Lines the trader may drag to a new price (a position's TP/SL); absent: none */
  drag?: ChartLineDrag<T> | undefined;
}

/**
 * Which of the drawn orders may be dragged, and what a drop does. The chart knows lines, not protections: the
 * page says which orders are movable (`movableOf` over the chart's own positions and orders) and confirms a move
 */
export interface ChartLineDrag<T extends MovableLine> {
  /** The symbol's tick: a dragged line snaps to it */
  tickSize: string;
  movableOf: (
    positions: readonly FuturesPosition[],
    orders: readonly FuturesOrder[],
  ) => ReadonlyMap<string, T>;
  /** A line was dropped at a new price: true once its confirmation is shown (`pending` then holds it there) */
  onMove: (move: LineMove, line: T) => boolean;
  /**
   * The move being confirmed, or one just confirmed (`until`: the time it was sent): that one stays drawn at its new
   * price until the open orders are fetched again after it, so the line does not jump back to the old order first
   */
  pending: HeldMove | null;
}

/** The main chart with its symbol and interval pickers */
export function ChartPanel<T extends MovableLine>({
  symbols,
  symbol,
  onSymbolChange,
  interval,
  onIntervalChange,
  pricePrecision,
  accountConnected,
  drag,
}: ChartPanelProps<T>) {
  const height = useChartHeight();
  const candles = useCandles(symbol, interval);
  const positions = useActivePositions(accountConnected);
  const orders = useActiveOrders(symbol, accountConnected);
  const trades = useSymbolTrades(symbol, accountConnected);

  const movableOf = drag?.movableOf;
  const movable = useMemo(
    () => movableOf?.(positions.data ?? [], orders.data ?? []),
    [movableOf, positions.data, orders.data],
  );
  const lines = useMemo(
    () => [...positionLines(positions.data ?? [], symbol), ...orderLines(orders.data ?? [], symbol, movable)],
    [positions.data, orders.data, symbol, movable],
  );
  const onMove = drag?.onMove;
  const onLineMove = useMemo(
    () =>
      onMove && movable
        ? (move: LineMove) => {
            const line = movable.get(move.orderId);
            return line ? onMove(move, line) : false;
          }
        : undefined,
    [onMove, movable],
  );
  const bars = candles.data;
  const firstOpen = bars?.[0]?.openTime;
  const lastOpen = bars?.[bars.length - 1]?.openTime;
  // Markers move only when a bar is added or dropped, not on every price tick
  // biome-ignore lint/correctness/useExhaustiveDependencies: the bars' span stands for the bars
  const fills = useMemo(() => fillMarkers(trades.data ?? [], bars ?? []), [trades.data, firstOpen, lastOpen]);
  const overlayError = [positions, orders, trades].find((q) => q.isError)?.error;
  const title = `${symbol} · ${interval}`;

  return (
    <section
      aria-labelledby="price-chart-title"
      className="db:flex db:min-w-0 db:flex-col db:gap-3 db:rounded-xl db:border db:border-border db:bg-card db:p-4"
    >
      {/*
        A native select and ui's ToggleGroup (plain buttons) rather than Radix Select and Tabs: the weight budget
        (Radix Select with floating-ui and Tabs cost ~40 KB gzip with their stylesheets), and a native picker is the
        better one on a phone
      */}
      <div className="db:flex db:flex-wrap db:items-center db:justify-between db:gap-2">
        <h2 id="price-chart-title" className="db:text-base db:font-semibold">
          Price chart
        </h2>
        <div className="db:flex db:flex-wrap db:items-center db:gap-2">
          <NativeSelect
            aria-label="Chart symbol"
            value={symbol}
            onChange={(e) => onSymbolChange(e.target.value)}
            className="db:w-36"
          >
            {symbols.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </NativeSelect>
          <ToggleGroup
            label="Chart interval"
            options={CHART_INTERVALS}
            value={interval}
            onChange={onIntervalChange}
          />
        </div>
      </div>
      <MarkLine symbol={symbol} pricePrecision={pricePrecision} />
      <ChartBody
        title={title}
        height={height}
        query={candles}
        pricePrecision={pricePrecision}
        lines={lines}
        fills={fills}
        tickSize={drag?.tickSize}
        onMove={onLineMove}
        pendingMove={shownMove(drag?.pending ?? null, orders.dataUpdatedAt)}
      />
      {overlayError && (
        <p role="alert" className="db:text-sm db:text-destructive">
          Your position, orders and fills could not be drawn: {overlayError.message}
        </p>
      )}
    </section>
  );
}

function ChartBody({
  title,
  height,
  query,
  pricePrecision,
  lines,
  fills,
  tickSize,
  onMove,
  pendingMove,
}: {
  title: string;
  height: number;
  query: ReturnType<typeof useCandles>;
  pricePrecision: number | undefined;
  lines: Parameters<typeof PriceChart>[0]['lines'];
  fills: Parameters<typeof PriceChart>[0]['fills'];
  tickSize: string | undefined;
  onMove: ((move: LineMove) => boolean) | undefined;
  pendingMove: MovedLine | null;
}) {
  const loading = (
    <div className="db:flex db:items-center db:justify-center" style={{ height }}>
      <Spinner label="Loading candles…" />
    </div>
  );
  if (query.isPending) return loading;
  if (query.isError) {
    return (
      <div
        role="alert"
        className="db:flex db:flex-col db:items-center db:justify-center db:gap-2 db:text-center db:text-sm"
        style={{ height }}
      >
        <p>
          The candles of {title} could not be loaded: {query.error.message}
        </p>
        <Button variant="outline" size="sm" onClick={() => query.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  if (query.data.length === 0) {
    return (
      <div
        className="db:flex db:items-center db:justify-center db:text-sm db:text-muted-foreground"
        style={{ height }}
      >
        The exchange has no candles of {title} yet.
      </div>
    );
  }
  return (
    <Suspense fallback={loading}>
      <PriceChart
        key={title}
        title={title}
        candles={query.data}
        pricePrecision={pricePrecision}
        lines={lines}
        fills={fills}
        height={height}
        compact={height < DESKTOP_HEIGHT}
        tickSize={tickSize}
        onMove={onMove}
        pendingMove={pendingMove}
      />
    </Suspense>
  );
}
