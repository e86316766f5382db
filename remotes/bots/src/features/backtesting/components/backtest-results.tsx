import type { BacktestDetail } from '@kestrel/contracts/backtest';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatDate,
  formatDateTime,
  Spinner,
} from '@kestrel/ui';
import { lazy, Suspense } from 'react';
import { useBacktestCandles } from '../api/get-backtest-candles';
import { MetricsCards } from './metrics-cards';
import { TradeTable } from './trade-table';

// The chart library is only fetched when a result is on screen: other bots pages never pay for it
const BacktestCharts = lazy(() => import('./backtest-charts'));

function runTitle(detail: BacktestDetail): string {
  return `${detail.strategyName} · ${detail.symbol} ${detail.interval}`;
}

function period(detail: BacktestDetail): string {
  return `${formatDate(detail.startTime)} → ${formatDate(detail.endTime - 1)} UTC`;
}

/** A finished run: figures, charts and trades; a failed or canceled run says why */
export function BacktestResults({ detail, onRunAgain }: { detail: BacktestDetail; onRunAgain?: () => void }) {
  const completed = detail.status === 'completed';
  const candles = useBacktestCandles(detail.id, completed);

  if (!completed) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>{runTitle(detail)}</CardTitle>
          <CardDescription>{period(detail)}</CardDescription>
        </CardHeader>
        <CardContent>
          <p role="alert" className="bt:text-sm bt:text-destructive">
            {detail.status === 'canceled' ? 'Canceled' : 'Failed'}
            {detail.error ? `: ${detail.error}` : ''}
          </p>
          {onRunAgain && (
            <Button variant="outline" size="sm" className="bt:mt-3" onClick={onRunAgain}>
              Edit and run again
            </Button>
          )}
        </CardContent>
      </Card>
    );
  }

  return (
    <section aria-labelledby="results-title" className="bt:flex bt:flex-col bt:gap-4">
      <div className="bt:flex bt:flex-col bt:gap-1">
        <h2 id="results-title" className="bt:text-lg bt:font-semibold">
          Results: {runTitle(detail)}
        </h2>
        <p className="bt:text-sm bt:text-muted-foreground">
          {period(detail)}
          {detail.finishedAt ? ` · finished ${formatDateTime(detail.finishedAt)}` : ''}
        </p>
      </div>
      {detail.metrics && <MetricsCards metrics={detail.metrics} />}
      {detail.bracketsSource === 'default' && (
        <p className="bt:text-sm bt:text-muted-foreground">
          {`Liquidation uses BTCUSDT's default leverage brackets; connect your Binance keys for ${detail.symbol}'s own.`}
        </p>
      )}
      <Card>
        <CardContent>
          <Suspense fallback={<Spinner label="Loading charts..." />}>
            <BacktestCharts detail={detail} candles={candles.data} />
          </Suspense>
          {candles.error && (
            <p role="alert" className="bt:mt-2 bt:text-sm bt:text-destructive">
              Candles could not be loaded: {candles.error.message}
            </p>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Trades</CardTitle>
        </CardHeader>
        <CardContent>
          <TradeTable
            trades={detail.trades}
            totalCount={detail.metrics?.tradeCount ?? detail.trades.length}
          />
        </CardContent>
      </Card>
    </section>
  );
}
