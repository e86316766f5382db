import '../../styles.css';
import { KLINE_INTERVALS, type KlineInterval } from '@kestrel/contracts';
import { ConnectExchangeButton } from '@kestrel/shared-runtime/federation';
import {
  RemotePage,
  useExchangeConnections,
  useExchangesLoading,
  useLiveStatus,
} from '@kestrel/shared-runtime/react';
import { useSearchParams } from '@kestrel/shared-runtime/router';
import { Badge, EmptyState, Spinner, stepDecimals } from '@kestrel/ui';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useSymbolPrecisions, useSymbolsInfo } from '../../api/get-symbol-info';
import { CardPanel } from '../../components/card-panel';
import { OrderBook } from '../../features/book/components/order-book';
import { TradesTape } from '../../features/book/components/trades-tape';
import { useOrderBookFeed, useTradesFeed } from '../../features/book/hooks/use-book-feed';
import { DEFAULT_INTERVAL } from '../../features/chart/api/get-klines';
import { ChartPanel } from '../../features/chart/components/chart-panel';
import { useRecentFills } from '../../features/fills/api/get-recent-fills';
import { RecentFillsPanel } from '../../features/fills/components/recent-fills-panel';
import { MarketWatch } from '../../features/market/components/market-watch';
import { useWatchList } from '../../features/market/hooks/use-watch-list';
import { useCreateOrder } from '../../features/orders/api/create-order';
import { useBotsSummary } from '../../features/overview/api/get-bots-summary';
import { useOverview } from '../../features/overview/api/get-overview';
import { AccountCards, type AccountCardsProps } from '../../features/overview/components/account-cards';
import { BotsSummary, type BotsSummaryProps } from '../../features/overview/components/bots-summary';
import { useProtectionDrag } from '../protection-drag';

const isInterval = (value: string | null): value is KlineInterval =>
  value !== null && (KLINE_INTERVALS as readonly string[]).includes(value);

/** The chart's symbol and interval live in the address (`?symbol=ETHUSDT&interval=15m`): a reload keeps them */
function useChartChoice(watchList: readonly string[]) {
  const [params, setParams] = useSearchParams();
  const asked = params.get('symbol');
  const symbol = asked && watchList.includes(asked) ? asked : (watchList[0] as string);
  const askedInterval = params.get('interval');
  const interval = isInterval(askedInterval) ? askedInterval : DEFAULT_INTERVAL;
  const set = useCallback(
    (key: 'symbol' | 'interval', value: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setSymbol = useCallback((s: string) => set('symbol', s), [set]);
  const setInterval = useCallback((i: KlineInterval) => set('interval', i), [set]);
  return { symbol, interval, setSymbol, setInterval };
}

/**
 * The ticket's form brings react-hook-form and zod (about 45 KB gzip): loaded once an exchange is connected to
 * trade with, so the chart, the book and the tape of a page without one do not wait for it
 */
const OrderTicket = lazy(() =>
  import('../../features/orders/components/order-ticket').then((m) => ({ default: m.OrderTicket })),
);

/** Positions and open orders with their actions: loaded once an exchange is connected, like the ticket */
const DashboardAccountPanel = lazy(() => import('../dashboard-account-panel'));

/**
 * Where a trader acts on the chart's symbol: its order book and trades tape, live, and the order ticket beside
 * them; a price pressed in the book or the tape becomes the ticket's limit price
 */
function TradingRow({
  symbol,
  connected,
  availableMargin,
}: {
  symbol: string;
  connected: boolean;
  /** The account cards' available margin, for sizing by a share of it */
  availableMargin: string | undefined;
}) {
  const book = useOrderBookFeed(symbol);
  const tape = useTradesFeed(symbol);
  const info = useSymbolsInfo([symbol]).get(symbol);
  const infoOf = useCallback((s: string) => (s === info?.symbol ? info : undefined), [info]);
  const create = useCreateOrder();
  const [pricePick, setPricePick] = useState<{ price: string } | undefined>(undefined);
  const pick = useCallback((price: string) => setPricePick({ price }), []);
  const baseAsset = info?.baseAsset ?? symbol.replace(/USDT$|USDC$/, '');
  return (
    <div className="db:grid db:min-w-0 db:grid-cols-1 db:items-start db:gap-4 db:md:grid-cols-2 db:xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_26rem]">
      {info ? (
        <OrderBook
          symbol={symbol}
          bids={book.bids}
          asks={book.asks}
          tickSize={info.tickSize}
          baseAsset={baseAsset}
          status={book.status}
          {...(book.error ? { error: book.error } : {})}
          onPrice={pick}
        />
      ) : (
        <OrderBook symbol={symbol} bids={[]} asks={[]} tickSize="1" baseAsset={baseAsset} status="loading" />
      )}
      <TradesTape
        trades={tape.trades}
        pricePrecision={info ? stepDecimals(info.tickSize) : 2}
        baseAsset={baseAsset}
        status={tape.status}
        {...(tape.error ? { error: tape.error } : {})}
        onPrice={pick}
      />
      {connected ? (
        <Suspense fallback={<Spinner label="Loading the order ticket…" />}>
          <OrderTicket
            // A new symbol on the chart: a fresh ticket for it
            key={symbol}
            defaultSymbol={symbol}
            infoOf={infoOf}
            onSymbolChange={() => {}}
            place={(order) => create.mutateAsync(order)}
            {...(pricePick ? { pricePick } : {})}
            availableMargin={availableMargin}
          />
        </Suspense>
      ) : (
        <CardPanel id="ticket-title" title="Place an order">
          <EmptyState
            title="No exchange connected"
            description="Connect your Binance futures account to trade from the book."
            action={<ConnectExchangeButton />}
          />
        </CardPanel>
      )}
    </div>
  );
}

/**
 * The trader's cockpit: account cards, the main chart with the position, orders and fills on it, the market watch,
 * recent fills and the bots summary. Market data is public to signed-in users, so the chart and the market watch
 * work before an exchange is connected; the account's figures say how to connect one.
 */
export default function DashboardPage() {
  const watch = useWatchList();
  const watchList = watch.symbols;
  const { symbol, interval, setSymbol, setInterval } = useChartChoice(watchList);
  const connections = useExchangeConnections();
  const exchangesLoading = useExchangesLoading();
  const connected = Object.values(connections).some((c) => c.status === 'connected');
  const live = useLiveStatus() === 'live';
  const protectionDrag = useProtectionDrag(symbol, connected);

  const overview = useOverview(connected);
  const bots = useBotsSummary();
  const botsSummaryProps: BotsSummaryProps = bots.isPending
    ? { state: 'loading' }
    : bots.isError && !bots.data
      ? { state: 'error', message: bots.error.message, onRetry: () => void bots.refetch() }
      : { state: 'ready', summary: bots.data as NonNullable<typeof bots.data> };
  const fills = useRecentFills(connected);
  const fillSymbols = fills.data?.map((f) => f.symbol) ?? [];
  const precisionSymbols = [...new Set([...watchList, ...fillSymbols])];
  const precisions = useSymbolPrecisions(precisionSymbols);
  const connectAction = useMemo(() => <ConnectExchangeButton />, []);

  let cards: AccountCardsProps;
  if (!connected) cards = exchangesLoading ? { state: 'loading' } : { state: 'no-exchange', connectAction };
  else if (overview.isPending) cards = { state: 'loading' };
  else if (overview.isError && !overview.data) {
    cards = { state: 'error', message: overview.error.message, onRetry: () => void overview.refetch() };
  } else cards = { state: 'ready', overview: overview.data as NonNullable<typeof overview.data> };

  return (
    <RemotePage
      remote="dashboard"
      title="Dashboard"
      actions={
        live ? (
          <Badge variant="outline">
            <span aria-hidden="true" className="db:size-2 db:rounded-full db:bg-success" />
            Live
          </Badge>
        ) : (
          <Badge variant="warning" role="status">
            Live data paused
          </Badge>
        )
      }
    >
      <section aria-label="Account" className="db:min-w-0">
        <AccountCards {...cards} />
      </section>
      <div className="db:grid db:min-w-0 db:grid-cols-1 db:items-start db:gap-4 db:xl:grid-cols-[minmax(0,1fr)_26rem]">
        <ChartPanel
          symbols={watchList}
          symbol={symbol}
          onSymbolChange={setSymbol}
          interval={interval}
          onIntervalChange={setInterval}
          pricePrecision={precisions.get(symbol)?.price}
          accountConnected={connected}
          drag={protectionDrag.drag}
        />
        {protectionDrag.dialog}
        <div className="db:flex db:min-w-0 db:flex-col db:gap-4">
          <MarketWatch
            symbols={watchList}
            selected={symbol}
            onSelect={setSymbol}
            onAdd={watch.add}
            onRemove={watch.remove}
            onReset={watch.reset}
          />
          <CardPanel id="bots-summary-title" title="Bots">
            <BotsSummary {...botsSummaryProps} />
          </CardPanel>
        </div>
      </div>
      <TradingRow symbol={symbol} connected={connected} availableMargin={overview.data?.availableMargin} />
      {connected && (
        <Suspense fallback={<Spinner label="Loading your positions and orders…" />}>
          <DashboardAccountPanel symbol={symbol} />
        </Suspense>
      )}
      {!connected && !exchangesLoading ? (
        <RecentFillsPanel state="no-exchange" connectAction={connectAction} precisions={precisions} />
      ) : !connected || fills.isPending ? (
        <RecentFillsPanel state="loading" precisions={precisions} />
      ) : fills.isError && !fills.data ? (
        <RecentFillsPanel
          state="error"
          message={fills.error.message}
          onRetry={() => void fills.refetch()}
          precisions={precisions}
        />
      ) : (
        <RecentFillsPanel state="ready" fills={fills.data ?? []} precisions={precisions} />
      )}
    </RemotePage>
  );
}
