import type { BotPlan, BotPlanRequest } from '@kestrel/contracts/bots';
import {
  Button,
  formatPercent,
  formatPrice,
  formatQuantity,
  formatUsdt,
  ScrollRegion,
  Spinner,
} from '@kestrel/ui';
import { type Figure, FigureGrid } from '@kestrel/ui/figures';
import { QueryState } from '@kestrel/ui/panel';
import { lazy, Suspense, useState } from 'react';
import { useBotPlan, useRecentCandles } from '../../bots/api/get-bot-plan';

const OrderPlanChart = lazy(() => import('./order-plan-chart'));

/** Seven days of hourly candles: how far the market moved lately, against the levels */
const CHART_INTERVAL = '1h';
const CHART_CANDLES = 168;
/** Orders listed before "Show all" (a grid may have 300 levels) */
const LISTED = 12;

/** The plan's headline figures as cards: price, margin against the budget, value placed, a grid level's profit */
function planCards(plan: BotPlan, budget: number, leverage: number): Figure[] {
  const figures: Figure[] = [
    { key: 'price', label: 'Price now', value: formatPrice(plan.price) },
    {
      key: 'margin',
      label: 'Margin needed',
      value: `${formatUsdt(plan.margin)} USDT`,
      hint: `of a ${formatUsdt(budget)} USDT budget, at ${leverage}×`,
      ...(plan.margin > budget ? { valueClassName: 'bt:text-destructive' } : {}),
    },
    {
      key: 'notional',
      label: 'Orders placed',
      value: `${formatUsdt(plan.buyNotional + plan.sellNotional)} USDT`,
      hint: `buys ${formatUsdt(plan.buyNotional)} · sells ${formatUsdt(plan.sellNotional)}`,
    },
  ];
  const level = plan.levelProfit;
  if (level) {
    const same = Math.abs(level.maxNet - level.minNet) < 0.005;
    figures.push({
      key: 'level-profit',
      label: 'Per level',
      value: same
        ? `${formatUsdt(level.minNet, { signed: true })} USDT`
        : `${formatUsdt(level.minNet, { signed: true })} to ${formatUsdt(level.maxNet, { signed: true })} USDT`,
      hint: `${formatPercent(level.minNetPct, { signed: true })}${same ? '' : ` to ${formatPercent(level.maxNetPct, { signed: true })}`} a round trip after fees (maker ${formatPercent(plan.feeRates.maker, { digits: 3 })} each side)`,
      ...(level.minNet <= 0 ? { valueClassName: 'bt:text-destructive' } : {}),
    });
  }
  return figures;
}

/** The plan's orders, highest price first; the first `LISTED` until asked for all */
function PlanOrders({ plan }: { plan: BotPlan }) {
  const [all, setAll] = useState(false);
  const sorted = [...plan.orders].sort((a, b) => b.price - a.price);
  const shown = all ? sorted : sorted.slice(0, LISTED);
  return (
    <div className="bt:flex bt:flex-col bt:gap-2">
      <ScrollRegion label="The bot's orders at the start">
        <table className="bt:w-full bt:text-sm">
          <caption className="bt:sr-only">The orders this bot would place, highest price first</caption>
          <thead className="bt:text-left bt:text-xs bt:text-muted-foreground">
            <tr>
              <th className="bt:py-1 bt:pr-3 bt:font-medium">Order</th>
              <th className="bt:py-1 bt:pr-3 bt:text-right bt:font-medium">Price</th>
              <th className="bt:py-1 bt:pr-3 bt:text-right bt:font-medium">Quantity</th>
              <th className="bt:py-1 bt:text-right bt:font-medium">Value (USDT)</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((o) => (
              <tr key={`${o.what}-${o.side}-${o.price}`} className="bt:border-t bt:border-border">
                <td className="bt:py-1 bt:pr-3">
                  <span className={o.side === 'BUY' ? 'bt:text-success' : 'bt:text-destructive'}>
                    {o.side === 'BUY' ? 'Buy' : 'Sell'}
                    {o.reduceOnly ? ' (reduce)' : ''}
                  </span>
                  <span className="bt:block bt:text-xs bt:text-muted-foreground">
                    {o.what}
                    {o.later ? ', after a fill' : ''}
                  </span>
                </td>
                <td className="bt:py-1 bt:pr-3 bt:text-right bt:font-mono bt:tabular-nums">
                  {formatPrice(o.price)}
                </td>
                <td className="bt:py-1 bt:pr-3 bt:text-right bt:font-mono bt:tabular-nums">
                  {formatQuantity(o.quantity)} {plan.baseAsset}
                </td>
                <td className="bt:py-1 bt:text-right bt:font-mono bt:tabular-nums">
                  {formatUsdt(o.notional)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {sorted.length > LISTED && (
        <Button
          type="button"
          size="sm"
          variant="ghost"
          className="bt:self-start"
          onClick={() => setAll((a) => !a)}
        >
          {all ? `Show the first ${LISTED}` : `Show all ${sorted.length} orders`}
        </Button>
      )}
    </div>
  );
}

/**
 * What the bot would place at the price now, before it is saved: the price, the margin its orders hold against the
 * budget, their value, a grid's profit per level after fees, what the exchange would refuse, the orders themselves
 * and a chart of the last days with them drawn
 */
export function OrderPlanPreview({ ask }: { ask: BotPlanRequest }) {
  const plan = useBotPlan(ask);
  const candles = useRecentCandles(ask.symbol, CHART_INTERVAL, CHART_CANDLES);
  return (
    <section
      aria-labelledby="bot-plan-title"
      className="bt:flex bt:flex-col bt:gap-3 bt:rounded-lg bt:border bt:border-border bt:p-3"
    >
      <h3 id="bot-plan-title" className="bt:text-sm bt:font-semibold">
        Its orders at the price now
      </h3>
      <QueryState
        query={plan}
        what="Its orders"
        loading={`Drawing its orders at ${ask.symbol}'s price…`}
        layout="inline"
        errorFirst
        isEmpty={(data) => data.orders.length === 0}
        empty={
          <p className="bt:text-sm bt:text-muted-foreground">
            This strategy places its orders on its signals: none stand at the start.
          </p>
        }
      >
        {(data) => (
          <>
            <FigureGrid
              label="Its orders' figures"
              className="bt:lg:grid-cols-4"
              figures={planCards(data, ask.budget, ask.leverage)}
            />
            {data.problems.length > 0 && (
              <div
                role="alert"
                className="bt:rounded-md bt:border bt:border-destructive bt:bg-destructive/10 bt:p-2 bt:text-sm"
              >
                <p className="bt:font-medium bt:text-destructive">The exchange would refuse these orders:</p>
                <ul className="bt:list-disc bt:pl-5">
                  {data.problems.map((p) => (
                    <li key={p.param}>{p.message}</li>
                  ))}
                </ul>
              </div>
            )}
            {candles.data && candles.data.length > 0 ? (
              <Suspense fallback={<Spinner label="Loading the chart…" />}>
                <OrderPlanChart plan={data} candles={candles.data} symbol={ask.symbol} />
              </Suspense>
            ) : candles.error ? (
              <p className="bt:text-sm bt:text-muted-foreground">
                The last days' candles could not be read ({candles.error.message}): the orders are listed
                below.
              </p>
            ) : candles.isPending ? (
              <Spinner label="Loading the last days…" />
            ) : null}
            <PlanOrders plan={data} />
          </>
        )}
      </QueryState>
    </section>
  );
}
