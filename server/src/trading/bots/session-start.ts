import { barOpenTime } from '@kestrel/engine';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import type { Queryable } from '../../lib/database/database';
import { BotFault, exchangeStep } from './bot-fault';
import type { BotRow } from './bot-repository';
import { botSessionStore } from './bot-session-store';
import type { BotBar } from './bot-step';

/** Paper: the bar in progress at the start, traded from the start price on */
export interface FirstBar {
  openTime: number;
  from: number;
  /** It opened before the start: its range may lie partly before the bot existed */
  partial: boolean;
}

/**
 * How a session begins (migration 021, `session-bars.ts`): its first step is the last bar closed when it started,
 * acted at the exchange's last price then, and the bar in progress then is lived from that price on. Sessions
 * started before bots acted at their start have none
 */
export class SessionStart {
  private constructor(
    /** The session's first step (the last bar closed at its start) and the price it acts at */
    private readonly step: { barTime: number; price: number },
    readonly firstBar: FirstBar,
  ) {}

  /** The start of the bot's session, its price read from the exchange the first time and kept on the row */
  static async of(
    row: BotRow,
    deps: { db: Queryable; exchange: Pick<ExchangeAdapter, 'lastPrice'> },
    session: { startedAt: number; tradeFrom: number },
  ): Promise<SessionStart | undefined> {
    const price = await startPrice(row, deps);
    if (price === undefined) return undefined;
    const inProgress = barOpenTime(row.interval, session.startedAt);
    return new SessionStart(
      { barTime: session.tradeFrom, price },
      { openTime: inProgress, from: price, partial: inProgress < session.startedAt },
    );
  }

  /** The first step acts at the price of the start, not at its bar's close (a bar old); undefined for other bars */
  priceAt(bar: BotBar): number | undefined {
    return bar.openTime === this.step.barTime ? this.step.price : undefined;
  }

  /**
   * The bar as the session lived it (the paper broker trades it so; a live bot's band is checked on it). The bar in
   * progress at the start is lived from the start on only: a straight line from the start price to its close, so
   * the bot's first orders are never filled (nor its band met) by a price the bar reached before the bot existed
   * (its high and low may lie before the start; the bars after it are whole)
   */
  view(bar: BotBar): BotBar {
    const first = this.firstBar;
    if (!first.partial || bar.openTime !== first.openTime) return bar;
    return {
      ...bar,
      open: first.from,
      high: Math.max(first.from, bar.close),
      low: Math.min(first.from, bar.close),
    };
  }
}

/**
 * The exchange's last price when the session started, read once and kept on the row (a resumed session acts its
 * first step at the same price); undefined for a session started before bots acted at their start
 */
async function startPrice(
  row: BotRow,
  deps: { db: Queryable; exchange: Pick<ExchangeAdapter, 'lastPrice'> },
): Promise<number | undefined> {
  if (row.trades_from === null || row.started_at === null) return undefined;
  if (row.start_price !== null) return row.start_price;
  const last = await exchangeStep(`read ${row.symbol}'s price`, () => deps.exchange.lastPrice(row.symbol));
  const price = Number(last);
  if (!(price > 0)) throw new BotFault(`The exchange gave no price for ${row.symbol}`);
  return (await botSessionStore.keepStartPrice(deps.db, row.id, row.started_at, price)) ?? price;
}
