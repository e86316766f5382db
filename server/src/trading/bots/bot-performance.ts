import type { TradingEnvironment } from '@kestrel/contracts';
import { BOT_CHART_BARS, type BotCandle, type BotFill, type BotPerformance } from '@kestrel/contracts/bots';
import { type BarColumns, barOpenTime } from '@kestrel/engine';
import { exchangeHttpError } from '../../core/exchange/exchange-http-error';
import type { Span } from '../../core/market-data/kline-repository';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { type BotEventRow, botEventRepository } from './bot-event-repository';
import { loggedFill } from './bot-log';
import { findOwnBot } from './bot-rows';
import { pnlCurve } from './pnl-curve';

/** Fill lines read for one chart: a bot with more starts its curve from the oldest of these */
const MAX_FILLS = 20_000;
/** Candles a chart shows at least, before the bot's first fill when it is recent */
const CONTEXT_BARS = 120;

export interface BotPerformanceDeps {
  db: Database;
  clock: Clock;
  /** Closed candles of the bot's environment (the kline cache the sessions read) */
  loadBars(
    environment: TradingEnvironment,
    symbol: string,
    interval: string,
    span: Span,
  ): Promise<BarColumns>;
  /** The environment's last price of the symbol, null when it cannot be read now (the curve ends at a close) */
  lastPrice(environment: TradingEnvironment, symbol: string): Promise<number | null>;
}

/** A fill from an `order_filled` line, at the time it filled (a paper fill at its bar's open) */
export function fillOfLine(row: Pick<BotEventRow, 'data' | 'created_at'>): BotFill | undefined {
  const f = loggedFill(row.data);
  if (!f) return undefined;
  return {
    time: f.fillTime ?? f.barTime ?? new Date(row.created_at).getTime(),
    side: f.side === 'buy' ? 'BUY' : 'SELL',
    price: f.price,
    quantity: f.quantity,
    fee: f.fee,
    realizedPnl: f.realizedPnl,
    positionAfter: f.positionAfter ?? 0,
  };
}

/** `count` bars back from the bar opening at `end` (calendar intervals step bar by bar) */
function barsBack(interval: BotPerformance['interval'], end: number, count: number): number {
  let t = end;
  for (let n = 0; n < count; n++) t = barOpenTime(interval, t - 1);
  return t;
}

function candlesOf(bars: BarColumns): BotCandle[] {
  return Array.from(bars.openTime, (time, i) => ({
    time,
    open: bars.open[i] as number,
    high: bars.high[i] as number,
    low: bars.low[i] as number,
    close: bars.close[i] as number,
  }));
}

/**
 * A bot's own story for its page (`GET …/performance`): the candles of its symbol since its first fill or start
 * (at least `CONTEXT_BARS`, at most the newest `BOT_CHART_BARS`), its fills on them, and its PnL curve from those
 * fills at each close and now
 */
export class BotPerformanceReader {
  constructor(private readonly deps: BotPerformanceDeps) {}

  async read(userId: string, id: string): Promise<BotPerformance> {
    const row = await findOwnBot(this.deps.db, userId, id);
    const now = this.deps.clock.now().getTime();
    const fills = (await botEventRepository.fillEvents(this.deps.db, id, MAX_FILLS))
      .map(fillOfLine)
      .filter((f): f is BotFill => f !== undefined)
      .sort((a, b) => a.time - b.time);
    const interval = row.interval as BotPerformance['interval'];
    // Closed bars only: the window ends where the forming bar opens
    const end = barOpenTime(interval, now);
    const began = fills[0]?.time ?? (row.started_at ? new Date(row.started_at).getTime() : now);
    // From its first fill, with at least some market before it (a new bot's fills are in the newest bars)
    const start = Math.max(
      Math.min(barOpenTime(interval, began), barsBack(interval, end, CONTEXT_BARS)),
      barsBack(interval, end, BOT_CHART_BARS),
    );
    const [bars, lastPrice] = await Promise.all([
      start < end
        ? this.deps.loadBars(row.environment, row.symbol, interval, { start, end }).catch((err: unknown) => {
            // The exchange's refusal or outage, said as the other exchange reads say it (a 502/503 with why)
            throw exchangeHttpError(err);
          })
        : Promise.resolve(undefined),
      this.deps.lastPrice(row.environment, row.symbol).catch(() => null),
    ]);
    const candles = bars ? candlesOf(bars) : [];
    const from = candles[0]?.time ?? start;
    const earlier = fills.filter((f) => f.time < from);
    const inWindow = fills.filter((f) => f.time >= from);
    return {
      symbol: row.symbol,
      interval,
      from,
      to: end,
      candles,
      fills: inWindow,
      curve: pnlCurve({
        earlier,
        fills: inWindow,
        candles,
        to: end,
        now,
        lastPrice,
      }),
      earlierFills: earlier.length,
    };
  }
}
