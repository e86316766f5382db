import type { BotOrder, BotRiskLimits } from '@kestrel/contracts/bots';
import {
  BarSeries,
  EngineInputError,
  roundToStep,
  StrategyDriver,
  type StrategyType,
  type TradeSignal,
} from '@kestrel/engine';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { Trade } from '../../core/exchange/exchange-adapter';
import type { AlgoOrderUpdateEvent, OrderUpdateEvent } from '../../core/exchange/exchange-streams';
import type { StoredIntent } from '../orders/order-intent-repository';
import type { OrderManager } from '../orders/order-manager';
import { judgeBotOrder } from '../risk/pre-trade/bot-limits';
import { firstRefusal } from '../risk/pre-trade/verdict';
import type { HedgeSide } from './bot-repository';
import {
  type BarOutcome,
  type BotBar,
  type BotLogEntry,
  orderWords,
  type PaperFigures,
  stepSignal,
  triggerOf,
} from './bot-step';
import { type BotOrderTracker, type FeeCounter, LivePort, type TrackedOrder, TYPES } from './live-port';
import type { StrategyHost } from './strategy-host';

/** What a live bot uses of the order manager: every order an intent keyed by (bot, its step, order index) */
export type LiveOrders = Pick<OrderManager, 'place' | 'cancel' | 'reconcile' | 'cancelAllFor'> & {
  /** The bot's intents with these client order ids, as the manager last read them */
  ofBot(botId: string, clientOrderIds: readonly string[]): Promise<StoredIntent[]>;
  /** The account's latest fills on the symbol (`userTrades`), newest first: the fees of fills the stream missed */
  recentTrades(account: TradingAccount, symbol: string): Promise<Trade[]>;
  /** The account's fills on the symbol since `since`, oldest first: a resumed bot's fills with their commission */
  tradesSince(
    account: TradingAccount,
    symbol: string,
    since: number,
  ): Promise<{ trades: Trade[]; complete: boolean }>;
  /** The truth about the bot's orders (state and fills), which the account subscribes to */
  tracker: BotOrderTracker;
};

export type { FeeCounter } from './live-port';

/**
 * A live bot's account: the strategy (through the engine's `StrategyDriver`) against the exchange, every order an
 * order-manager intent keyed by (bot, the step that placed it: a bar's open time or a fill's trigger, index of the
 * order in that step), so asking again for the same intent never sends a second order. The bot's position is the sum of its own fills (other orders and positions on
 * the account are the owner's or another bot's: reported by the manager's reconcile, never touched). Fills are
 * read from the intents' orders as the manager last read them (it reconciles before every bar). A resumed bot
 * replays its bars since the start: each order it asks for again is answered by the stored intent, so the
 * strategy's state is rebuilt from what really happened on the exchange, and nothing is sent twice.
 */
export class LiveAccount {
  private readonly series: BarSeries;
  private readonly driver: StrategyDriver;
  private readonly port: LivePort;
  private last: BotBar | undefined;
  private dayRealized = 0;
  private day = Number.NaN;
  private peakEquity: number;
  private readonly unsubscribe: () => void;
  /** The last position difference logged (`checkPosition`), so one difference is said once */
  private reportedDrift: string | undefined;
  /** The latest price seen (a forming candle's), newer than the last close */
  private lastPrice: number | undefined;
  /** The strategy's wakes by the price in the bar in progress: their orders are keyed `w<bar open>.<n>` */
  private wakes = { barTime: Number.NaN, count: 0 };
  /** The session's fills before a restart, read once when the replay first needs them */
  private sessionTrades: Promise<{ trades: Trade[]; failure?: string }> | undefined;

  constructor(
    type: StrategyType,
    params: Record<string, unknown>,
    intervalMs: number,
    private readonly ctx: {
      /** The bot's account (`accountOfBot`): every order, cancel, reconcile and trade read goes there */
      account: TradingAccount;
      /** The strategy host's side of the pre-trade record: whose orders, and its own verdicts on the bar */
      preTrade: Pick<StrategyHost, 'origin' | 'verdicts'>;
      botId: string;
      symbol: string;
      budget: number;
      leverage: number;
      tickSize: number;
      stepSize: number;
      limits: BotRiskLimits;
      orders: LiveOrders;
      /** Open time of the session's first traded bar: its fills before a restart are read back from here */
      sessionStart: number;
      /**
       * Put before every intent key: the session's start (`<started_at ms>/`), so a bot stopped and started again
       * within one bar keys its first step apart from the last session's; '' for sessions started before
       * `trades_from` existed, whose stored intents are keyed without it
       */
      keyPrefix: string;
      countFee: FeeCounter;
      /**
       * The account's position on the symbol as the exchange holds it, for a bot alone there (absent when the
       * trader started it sharing the symbol; undefined when another live bot now shares it): held to the bot's
       */
      exchangePosition?: () => Promise<number | undefined>;
      /**
       * On an account in hedge mode: the side of the symbol the bot holds. Every order names it (closing is that
       * side's opposite order, so no `reduceOnly`)
       */
      positionSide?: HedgeSide;
    },
  ) {
    this.series = new BarSeries(intervalMs, 64);
    this.port = new LivePort(
      { ...ctx, userId: ctx.account.userId },
      ctx.orders.tracker,
      ctx.countFee,
      (r) => {
        const f = this.figures();
        this.peakEquity = Math.max(this.peakEquity, f.equity);
        return judgeBotOrder(ctx.preTrade.origin, {
          request: r,
          figures: f,
          peakEquity: this.peakEquity,
          limits: ctx.limits,
          roundQty: (q) => this.port.roundQty(q),
        });
      },
    );
    this.driver = new StrategyDriver(type, params, this.series, this.port);
    this.peakEquity = ctx.budget;
    // Every change the tracker hears of (REST answers, the stream) reaches the strategy's view of the order
    this.unsubscribe = ctx.orders.tracker.subscribe(ctx.botId, (o) => this.port.sync(o.clientOrderId));
  }

  /** The account is done here (stopped, or the bot goes on elsewhere): the tracker stops following its orders */
  dispose(): void {
    this.unsubscribe();
  }

  warm(bar: BotBar): void {
    this.series.append(bar.openTime, bar.open, bar.high, bar.low, bar.close, bar.volume);
    this.driver.onBarClosed(this.series.length - 1, []);
  }

  /**
   * A closed bar: the bot's orders as the exchange has them now (`replay`: as stored, for bars before a restart),
   * fills not taken yet taken and answered, then the bar to the strategy (at `price` when it is newer than the
   * close: the session's first step); its new orders and cancels through the order manager
   */
  async trade(
    bar: BotBar,
    replay: boolean,
    price?: number,
    lived: Pick<BotBar, 'open' | 'high' | 'low'> = bar,
  ): Promise<BarOutcome> {
    this.port.warming = false;
    this.lastPrice = undefined;
    this.series.append(bar.openTime, bar.open, bar.high, bar.low, bar.close, bar.volume);
    const i = this.series.length - 1;
    const barEnd = bar.openTime + this.series.intervalMs;
    const day = Math.floor(bar.openTime / 86_400_000);
    if (day !== this.day) {
      this.day = day;
      this.dayRealized = this.port.realized;
    }
    this.last = bar;
    const log: BotLogEntry[] = [];
    if (!replay) await this.resync(log);
    else await this.replayFills(barEnd, log, bar.openTime);
    this.port.settleBar(barEnd, log, bar.openTime);
    // Fills inside the bar (a replay's, or ones the stream missed) were answered before the bar closed
    const answered = await this.answerFills(log, i - 1);
    if (answered) return { log, breach: answered };
    if (!replay) await this.checkPosition(log, bar.openTime);
    const f = this.figures();
    this.peakEquity = Math.max(this.peakEquity, f.equity);
    const account = judgeBotOrder(this.ctx.preTrade.origin, {
      request: undefined,
      figures: f,
      peakEquity: this.peakEquity,
      limits: this.ctx.limits,
      roundQty: (q) => q,
    }).breach;
    if (account) return { log, breach: account };

    // A band the strategy watches that the bar's range crossed and no price of it woke (a replay, a quiet stream)
    const woken = await this.wakeOnRange(bar.openTime, lived, i - 1, log);
    if (woken) return { log, breach: woken };
    this.port.breach = undefined;
    this.driver.onBarClosed(i, [], price);
    const { breach: stop } = await this.sendWork(log, `${bar.openTime}`, { bar, price });
    return stop ? { log, breach: stop } : { log };
  }

  /**
   * A price of the bar in progress (the forming candle's last): the figures follow it, and beyond the band the
   * strategy watches it wakes it, its orders sent at once. The limit they broke or a refusal, if any
   */
  async onPrice(price: number, barTime: number): Promise<BarOutcome | undefined> {
    if (this.port.warming || this.series.length === 0) return undefined;
    this.lastPrice = price;
    this.port.breach = undefined;
    if (!this.driver.onPrice(price, this.series.length - 1)) return undefined;
    return this.sendWake(barTime);
  }

  /**
   * The closed bar (`lived`: the part of it the session lived, for the bar of its start) crossed the band still
   * watched: the strategy is woken at the band's edge (at the open, when it opened past it), as a price of the bar
   * would have woken it. A replayed bar's wake asks for the keys the live one did
   */
  private async wakeOnRange(
    barTime: number,
    lived: Pick<BotBar, 'open' | 'high' | 'low'>,
    lastClosed: number,
    log: BotLogEntry[],
  ): Promise<BarOutcome['breach']> {
    const { low, high } = this.driver.watchedBand;
    let at: number;
    if (lived.open <= low || lived.open >= high) at = lived.open;
    else if (lived.low <= low) at = low;
    else if (lived.high >= high) at = high;
    else return undefined;
    this.port.breach = undefined;
    if (!this.driver.onPrice(at, lastClosed)) return undefined;
    const woken = await this.sendWake(barTime);
    log.push(...woken.log);
    return woken.breach;
  }

  /** What the strategy did when the price woke it, sent keyed `w<bar open>.<n>` (its n-th wake in that bar) */
  private async sendWake(barTime: number): Promise<BarOutcome> {
    if (this.wakes.barTime !== barTime) this.wakes = { barTime, count: 0 };
    const n = this.wakes.count++;
    const log: BotLogEntry[] = [];
    const { breach: stop } = await this.sendWork(log, `w${barTime}.${n}`);
    return stop ? { log, breach: stop } : { log };
  }

  /**
   * An outside signal (the bot's webhook) handed to the strategy at `market` (the exchange's price now; absent: the
   * latest price seen, else the last close), what it places or cancels sent at once, each order keyed
   * `<key>:<index>` (`key` names the signal, so a signal handed over again after a restart asks for the same
   * intents). Undefined: the strategy reads no signals, or the session has not traded its first bar yet. The price
   * it acted at comes back with the answer, for a replay
   */
  async onSignal(
    signal: TradeSignal,
    key: string,
    market?: number,
  ): Promise<(SignalOutcome & { price: number }) | undefined> {
    if (this.port.warming || this.series.length === 0) return undefined;
    if (market !== undefined) this.lastPrice = market;
    const price = this.lastPrice ?? this.last?.close;
    if (price === undefined) return undefined;
    // The strategy decides on the position as the exchange has it now: fills its orders have that the stream has not
    // brought yet (a buy's market order a moment ago) are read and answered first, or a sell would see no long
    const log: BotLogEntry[] = [];
    if (this.port.missing().length > 0 || this.port.firedUnfilled()) await this.resync(log);
    const answered = await this.answerFills(log);
    if (answered) return { log, placed: [], canceled: 0, breach: answered, price };
    const done = await this.actOnSignal(signal, key, price, log);
    return done && { ...done, price };
  }

  /**
   * A signal acted on before a restart, handed to the strategy again where it came (after the bar before
   * `receivedAt` and the fills up to then), at the price it was acted at: its orders are found among the stored
   * intents, not sent again, and the strategy stands where it stood
   */
  async replaySignal(
    signal: TradeSignal,
    key: string,
    price: number,
    receivedAt: number,
  ): Promise<BarOutcome> {
    const log: BotLogEntry[] = [];
    const last = this.last;
    // Fills up to the signal's millisecond included: the ones it saw when it came
    if (last) await this.replayFills(receivedAt + 1, log, last.openTime);
    const answered = await this.answerFills(log);
    if (answered) return { log, breach: answered };
    const done = await this.actOnSignal(signal, key, price, log);
    return done?.breach ? { log, breach: done.breach } : { log };
  }

  private async actOnSignal(
    signal: TradeSignal,
    key: string,
    price: number,
    log: BotLogEntry[],
  ): Promise<SignalOutcome | undefined> {
    this.port.breach = undefined;
    let read: boolean;
    try {
      read = this.driver.onSignal(signal, price, this.series.length - 1);
    } catch (err) {
      // The sender's input, not the strategy's fault: refused, the bot goes on
      if (err instanceof EngineInputError) return { log, placed: [], canceled: 0, refused: err.message };
      throw err;
    }
    if (!read) return undefined;
    return { log, ...(await this.sendWork(log, key)) };
  }

  /**
   * The fills taken since the last step handed to the strategy one by one, as they happened, and what it places
   * in answer sent at once (a grid's counter-order, a DCA's take-profit): keyed by the fill's trigger, so a
   * resumed bot that takes the same fills again asks for the same intents. The limit an answer broke, if any
   */
  private async answerFills(
    log: BotLogEntry[],
    lastClosed = this.series.length - 1,
  ): Promise<BarOutcome['breach']> {
    for (const { fill, trigger } of this.port.takeTaken()) {
      this.port.breach = undefined;
      this.driver.onFill(fill, lastClosed);
      const { breach: stop } = await this.sendWork(log, `f:${trigger}`);
      if (stop) return stop;
    }
    return undefined;
  }

  /**
   * The strategy step's cancels and new orders through the order manager, each order an intent keyed
   * `<key>:<index>`; `step` when it was a closed bar's (at `price` for the start). What it sent, and the limit the
   * step broke or the first refusal, if any
   */
  private async sendWork(
    log: BotLogEntry[],
    key: string,
    step?: { bar: BotBar; price: number | undefined },
  ): Promise<SentWork> {
    const bar = step?.bar;
    const { orders, botId, preTrade } = this.ctx;
    const { userId } = this.ctx.account;
    const breach = this.port.breach;
    const { submitted, cancels } = this.port.takeWork();
    const at = bar ? { barTime: bar.openTime } : {};
    for (const clientOrderId of cancels) {
      try {
        await orders.cancel(userId, clientOrderId);
      } catch (err) {
        log.push({
          kind: 'error',
          message: `Cancel of ${clientOrderId} failed: ${(err as Error).message}`,
          data: { ...at, clientOrderId },
        });
      }
    }
    if (submitted.length > 0 && step) log.push(stepSignal(step.bar, step.price, submitted.length));
    let refused: BarOutcome['breach'];
    const placed: string[] = [];
    for (const [k, o] of submitted.entries()) {
      const intent = await orders.place({
        account: this.ctx.account,
        source: 'bot',
        origin: preTrade.origin,
        botId,
        intentKey: `${this.ctx.keyPrefix}${key}:${k}`,
        order: this.port.request(o),
        checked: [...preTrade.verdicts(), ...o.verdicts],
      });
      this.port.adopt(o, intent);
      placed.push(intent.clientOrderId);
      const data = {
        ...at,
        clientOrderId: intent.clientOrderId,
        side: o.side,
        type: o.type,
        quantity: o.quantity,
        price: o.price,
        state: intent.state,
      };
      if (intent.state === 'rejected' || intent.state === 'not_placed') {
        const reason = intent.reason ?? 'no reason given';
        log.push({
          kind: 'order_refused',
          message: `The exchange refused ${orderWords(o)}: ${reason}`,
          data,
        });
        // Never loop on a refusal: the bot stops and says why. Refused by our pre-trade checks, it is a risk stop;
        // by the exchange (or never sent: it was down), it is not, and the owner is told which
        const byRisk = intent.preTrade !== null && firstRefusal(intent.preTrade.verdicts) !== undefined;
        refused ??= byRisk
          ? { message: `An order was refused: ${reason}`, data }
          : { message: `The exchange refused an order: ${reason}`, data, cause: 'exchange' };
      } else if (intent.state === 'unknown' || intent.state === 'sending' || intent.state === 'pending') {
        log.push({
          kind: 'order_unknown',
          message: `${orderWords(o)}: outcome unknown, the server is asking the exchange`,
          data,
        });
      } else {
        log.push({
          kind: 'order_sent',
          message: `${orderWords(o)} (${intent.clientOrderId})`,
          data,
        });
      }
    }
    return { breach: breach ?? refused, placed, canceled: cancels.length };
  }

  /**
   * An order update from the owner's account stream: a trade of one of the bot's orders is taken at once
   * (position, PnL net of the commission); the log lines to record. `answer` then sends the strategy's answer
   */
  async onOrderUpdate(e: OrderUpdateEvent): Promise<BotLogEntry[]> {
    const log: BotLogEntry[] = [];
    // The bot's own order, or the one a trigger of its conditional orders placed (named by the exchange)
    if (!this.port.follows(e.clientOrderId) && this.port.firedAs(e.orderId) === undefined) return log;
    const id = this.ctx.orders.tracker.noteStream(this.ctx.account.userId, e);
    if (id !== undefined) await this.port.takeFillsOf(id, log);
    return log;
  }

  /** Exchange order `orderId` was placed by the trigger of one of the bot's conditional orders */
  placedByTrigger(orderId: string): boolean {
    return this.port.firedAs(orderId) !== undefined;
  }

  /**
   * A conditional order's update from the account stream (`ALGO_UPDATE`). One of the bot's that fired: the order
   * its trigger placed is followed as its own, and its fills are read by REST now (that order's own update may have
   * come before this one); the log lines to record. `answer` follows
   */
  async onConditionalUpdate(e: AlgoOrderUpdateEvent): Promise<BotLogEntry[]> {
    if (!this.port.follows(e.clientAlgoId)) return [];
    const fired = this.ctx.orders.tracker.noteConditional(this.ctx.account.userId, e);
    return fired ? this.resync() : [];
  }

  /** After a stream gap: the bot's orders re-read by REST, fills the stream missed taken; `answer` follows */
  recover(): Promise<BotLogEntry[]> {
    return this.resync();
  }

  /**
   * The fills taken since the last step (from the stream, a resync) answered by the strategy now, its orders sent;
   * what to log, and the limit an answer broke, if any
   */
  async answer(): Promise<BarOutcome> {
    const log: BotLogEntry[] = [];
    if (this.series.length === 0) return { log };
    const breach = await this.answerFills(log);
    return breach ? { log, breach } : { log };
  }

  /**
   * A replayed bar (before a restart): the fills of the bot's orders up to its end, each as the exchange booked it
   * (`userTrades`: price, time and commission), so the session's PnL after a restart still counts the fees paid
   * before it. Fills the trades do not show (they could not be read) are taken by `takeFills` at the order's
   * average, without fee, and the log says so once
   */
  private async replayFills(barEnd: number, log: BotLogEntry[], barTime: number): Promise<void> {
    if (!this.port.missing().some((o) => o.exchangeOrderId !== undefined)) return;
    const { account, symbol, orders, sessionStart } = this.ctx;
    const first = this.sessionTrades === undefined;
    this.sessionTrades ??= orders.tradesSince(account, symbol, sessionStart).then(
      ({ trades, complete }) =>
        complete
          ? { trades }
          : {
              trades,
              failure: `Fills before the restart past the first ${trades.length} are counted without their fees (too many to read back)`,
            },
      (err: unknown) => ({
        trades: [],
        failure: `Fills before the restart are counted without their fees: the exchange's trades could not be read (${(err as Error).message || 'no answer'})`,
      }),
    );
    const { trades, failure } = await this.sessionTrades;
    if (failure && first) log.push({ kind: 'error', message: failure, data: { barTime } });
    orders.tracker.noteTrades(account.userId, trades);
    await this.port.takeTrades(log, barTime, barEnd);
  }

  /**
   * Brings the bot's orders to the exchange's state by REST (the manager's reconcile, then the intents): after a
   * stream gap (`recover`), and before each bar. Fills found this way (the stream missed them) are taken with their
   * commission from the account's recent trades; the log lines to record
   */
  private async resync(log: BotLogEntry[] = []): Promise<BotLogEntry[]> {
    const { orders, account, botId, symbol } = this.ctx;
    await orders.reconcile(account, symbol);
    for (const intent of await orders.ofBot(botId, this.port.followed)) orders.tracker.noteIntent(intent);
    if (this.port.missing().length > 0 || this.port.firedUnfilled()) {
      orders.tracker.noteTrades(account.userId, await orders.recentTrades(account, symbol));
      await this.port.takeTrades(log);
    }
    return log;
  }

  /**
   * A bot alone on its symbol holds what the exchange holds there: a difference (a manual trade since the start, a
   * fill nothing reported) is logged as `position_drift`, once per difference, and the bot goes on with its own
   * fills. Its figures are never adjusted to the exchange's: they are what the bot did
   */
  private async checkPosition(log: BotLogEntry[], barTime: number): Promise<void> {
    const read = this.ctx.exchangePosition;
    if (!read) return;
    let held: number | undefined;
    try {
      held = await read();
    } catch {
      return; // The next bar asks again; a failing exchange is reported by the calls that trade
    }
    if (held === undefined) return;
    const own = this.port.positionQty;
    const step = this.ctx.stepSize;
    const differs = Math.abs(held - own) >= step / 2;
    const key = differs ? `${roundToStep(held, step)}|${roundToStep(own, step)}` : undefined;
    if (key === this.reportedDrift) return;
    this.reportedDrift = key;
    if (!differs) return;
    const words = (q: number) => (q === 0 ? 'flat' : `${q > 0 ? 'long' : 'short'} ${Math.abs(q)}`);
    log.push({
      kind: 'position_drift',
      message:
        `The exchange holds ${words(roundToStep(held, step))} ${this.ctx.symbol} on this account; this bot's own fills ` +
        `add up to ${words(roundToStep(own, step))}. Something else traded ${this.ctx.symbol}: its figures count only its own fills`,
      data: { barTime, exchangePosition: held, botPosition: own },
    });
  }

  /** Stops trading: every order of the bot canceled through the manager; the session's PnL at the last close */
  async close(): Promise<{ sessionPnl: number; canceled: number }> {
    const result = await this.ctx.orders.cancelAllFor(this.ctx.botId).finally(() => this.dispose());
    const f = this.figures();
    return { sessionPnl: f.realizedPnl + f.unrealizedPnl, canceled: result.canceled.length };
  }

  figures(): PaperFigures {
    const p = this.port;
    const mark = this.lastPrice ?? this.last?.close;
    const unrealized = mark === undefined || p.positionQty === 0 ? 0 : p.positionQty * (mark - p.entryPrice);
    return {
      // Net of the commissions paid
      realizedPnl: p.realized,
      unrealizedPnl: unrealized,
      todayPnl: p.realized - this.dayRealized + unrealized,
      positionQty: p.positionQty,
      entryPrice: p.positionQty === 0 ? null : p.entryPrice,
      markPrice: mark ?? null,
      equity: this.ctx.budget + p.realized + unrealized,
      peakEquity: Math.max(this.peakEquity, this.ctx.budget + p.realized + unrealized),
      openOrders: p.openOrders.map((o) => toBotOrder(o as TrackedOrder)),
    };
  }
}

/** What one step sent: the limit it broke or the first refusal, the orders placed, the cancels asked */
interface SentWork {
  breach: BarOutcome['breach'];
  /** Client order ids of the orders it asked for (refused ones too) */
  placed: string[];
  canceled: number;
}

/** What a signal did: its lines, what it sent; `refused`: the signal itself was not one the strategy takes */
export interface SignalOutcome {
  log: BotLogEntry[];
  placed: string[];
  canceled: number;
  breach?: BarOutcome['breach'];
  refused?: string;
}

function toBotOrder(o: TrackedOrder): BotOrder {
  return {
    clientOrderId: o.clientOrderId,
    side: o.side === 'buy' ? 'BUY' : 'SELL',
    type: TYPES[o.type],
    price: Number.isFinite(o.price) ? String(o.price) : null,
    quantity: String(o.quantity),
    triggerPrice: triggerOf(o),
    closePosition: o.closePosition,
    status: o.exchangeStatus,
    reduceOnly: o.reduceOnly,
    time: o.submittedAt,
  };
}
