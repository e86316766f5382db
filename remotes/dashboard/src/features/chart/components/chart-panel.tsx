import type { KlineInterval } from '@kestrel/contracts';
import { Button, Spinner } from '@kestrel/ui';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@kestrel/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@kestrel/ui/tabs';
import { lazy, Suspense, useMemo, useSyncExternalStore } from 'react';
import { useActiveOrders } from '../api/get-active-orders';
import { useActivePositions } from '../api/get-active-positions';
import { useSymbolTrades } from '../api/get-symbol-trades';
import { useCandles } from '../hooks/use-candles';
import { fillMarkers, orderLines, positionLines } from '../lib/overlays';

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

export interface ChartPanelProps {
  symbols: readonly string[];
  symbol: string;
  onSymbolChange: (symbol: string) => void;
  interval: KlineInterval;
  onIntervalChange: (interval: KlineInterval) => void;
  /** Decimals of the symbol's prices, once its rules are known */
  pricePrecision: number | undefined;
  /** An exchange account is connected: the position, orders and fills are drawn */
  accountConnected: boolean;
}

/** The main chart with its symbol and interval pickers */
export function ChartPanel({
  symbols,
  symbol,
  onSymbolChange,
  interval,
  onIntervalChange,
  pricePrecision,
  accountConnected,
}: ChartPanelProps) {
  const height = useChartHeight();
  const candles = useCandles(symbol, interval);
  const positions = useActivePositions(accountConnected);
  const orders = useActiveOrders(symbol, accountConnected);
  const trades = useSymbolTrades(symbol, accountConnected);

  const lines = useMemo(
    () => [...positionLines(positions.data ?? [], symbol), ...orderLines(orders.data ?? [], symbol)],
    [positions.data, orders.data, symbol],
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
      {/* The interval tabs own the chart as their panel (a tab list without panels points at nothing) */}
      <Tabs value={interval} onValueChange={(v) => onIntervalChange(v as KlineInterval)} className="db:gap-3">
        <div className="db:flex db:flex-wrap db:items-center db:justify-between db:gap-2">
          <h2 id="price-chart-title" className="db:text-base db:font-semibold">
            Price chart
          </h2>
          <div className="db:flex db:flex-wrap db:items-center db:gap-2">
            <Select value={symbol} onValueChange={onSymbolChange}>
              <SelectTrigger aria-label="Chart symbol" className="db:w-36">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {symbols.map((s) => (
                  <SelectItem key={s} value={s}>
                    {s}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <TabsList aria-label="Chart interval">
              {CHART_INTERVALS.map((i) => (
                <TabsTrigger key={i} value={i} className="db:px-2">
                  {i}
                </TabsTrigger>
              ))}
            </TabsList>
          </div>
        </div>
        <TabsContent value={interval}>
          <ChartBody
            title={title}
            height={height}
            query={candles}
            pricePrecision={pricePrecision}
            lines={lines}
            fills={fills}
          />
        </TabsContent>
      </Tabs>
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
}: {
  title: string;
  height: number;
  query: ReturnType<typeof useCandles>;
  pricePrecision: number | undefined;
  lines: Parameters<typeof PriceChart>[0]['lines'];
  fills: Parameters<typeof PriceChart>[0]['fills'];
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
      />
    </Suspense>
  );
}
