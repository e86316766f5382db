import type { KlineInterval } from '@kestrel/contracts';
import type { BarColumns, TradeSignal } from '@kestrel/engine';
import { barOpenTime, nextBarOpenTime, StrategyError } from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import type { KlineEvent } from '../../core/exchange/exchange-streams';
import type { KlineSeriesKey, Span } from '../../core/market-data/kline-repository';
import type { RunBrackets } from '../../core/market-data/leverage-brackets';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { isBotClientOrderId } from '../orders/client-order-id';
import { BotFault, faultOf, reasonOf, stopOnBreach } from './bot-fault';
import type { BotLog } from './bot-log';
import { accountOfBot, type BotRow } from './bot-repository';
import { botSessionStore } from './bot-session-store';
import { type BarOutcome, type BotBar, barAt, barOfKline, type PaperFigures } from './bot-step';
import type { BotStreamListener } from './bot-user-streams';
import { CandleIntake } from './candle-intake';
import { LiveAccount } from './live-account';
import { PaperAccount, type PaperPath } from './paper-account';
import { openSessionAccount, type SessionAccountDeps } from './session-account';
import { sessionBars } from './session-bars';
import { SessionLog } from './session-log';
import { SessionStart } from './session-start';
import type { ActedSignal, SignalTaken } from './signals/signal-words';
import { signalTakenWords } from './signals/signal-words';
import type { StrategyHost } from './strategy-host';

/** A session's ports, with its account's (`SessionAccountDeps`: the order manager, fees, the exchange's position) */
export interface BotSessionDeps extends SessionAccountDeps {
  db: Database;
  clock: Clock;
  log: BotLog;
  logger: FastifyBaseLogger;
  /**
   * Everything below reads the bot's own environment (`row.environment`), whatever its owner is on now: its symbol
   * rules, its candles (stored under `exchangeEnv`, that environment's exchange), its leverage brackets (read with
   * that environment's key) and its candle stream. The keyed calls are handed the session's `account`
   */
  exchange: Pick<ExchangeAdapter, 'symbolInfo' | 'lastPrice'>;
  /** Closed bars of [start, end) from the kline cache (missing ones asked of the exchange) */
  loadBars(key: KlineSeriesKey, span: Span): Promise<BarColumns>;
  brackets(account: TradingAccount, symbol: string): Promise<RunBrackets>;
  /**
   * Follows the pair's candles, forming and closed (one upstream stream per pair on this instance); returns the
   * stop
   */
  watchCandles(symbol: string, interval: string, listener: (e: KlineEvent) => void): () => void;
  /** The name the kline cache keeps the bot's exchange's candles under (simulator, testnet or mainnet) */
  exchangeEnv: string;
  /** The bot broke a limit or failed: the runner stops it (state `error`) and records why */
  onFault(fault: BotFault): void;
  /** The bot's figures changed (a bar was traded, a fill came in): the runner writes them for other instances */
  onFigures(): void;
  /** Live bots: follows the account's stream (fills as they happen, gaps); returns the unfollow */
  followAccount(account: TradingAccount, listener: BotStreamListener): () => void;
  /** The trade signals the session acted on before a restart, oldest first (handed to the strategy again) */
  actedSignals(botId: string, startedAt: Date): Promise<ActedSignal[]>;
}

/**
 * One running bot on this instance. It trades from the last bar closed at its start (`trades_from`) on, so its
 * strategy acts at once: the bars before it (the strategy's own `warmupBars`) only warm the strategy up. Its
 * account is a pure function of its bars since the start (and the price of the start, kept on its row), so a bot
 * resumed on another instance or after a restart replays them from the kline cache
 * and stands exactly where it stood; what it already logged (`barTime` of its events) is not logged twice. Then it
 * follows the pair's candles from the exchange stream: the forming ones are the market's price (a paper account
 * walks the bar on them, a live strategy watching a band is woken by them), the closed ones its bars; a bar the
 * stream missed (reconnect) is read from the kline cache before the next one is handled.
 */
export class BotSession {
  private account: PaperAccount | LiveAccount | undefined;
  private unwatch: (() => void) | undefined;
  private unfollow: (() => void) | undefined;
  /** Candles are handled one after the other, in order */
  private chain: Promise<void> = Promise.resolve();
  /** Open time of the next bar to trade */
  private next = 0;
  private closed = false;
  private readonly key: KlineSeriesKey;
  /** The account the bot trades on, from its row once at the start: its owner's current environment never moves it */
  readonly tradingAccount: TradingAccount;
  /** When the session started, and the open of its first traded bar (`session-bars.ts`) */
  private readonly session: { startedAt: number; tradesFrom: number | null };
  private readonly tradeFrom: number;
  /** The session's first step at the price of its start, and the bar in progress then; none on older sessions */
  private start: SessionStart | undefined;
  /** Releases the work queued behind `run` (or lets it go, when the session ends before it ran) */
  private startGate: ((done: Promise<void> | undefined) => void) | undefined;
  /** The bars since the warm-up's start, read by `open` up to `end` (exclusive), traded by `run` */
  private history: { end: number; bars: BarColumns | undefined } | undefined;
  /** What the session logs, and what the log already says from before a restart */
  private readonly sessionLog: SessionLog;
  /** Paper: the session's paths through the bars it walked on live prices, as kept (`bot_paper_paths`) */
  private paperPaths = new Map<number, PaperPath>();
  /** Bars traded from the kline cache at open (the bars since the start: the resumed part of the account) */
  replayed = 0;
  /** Live bots: the leverage set on the exchange at open */
  leverageSet: number | undefined;
  /** Live: the signals acted on before a restart not handed to the strategy again yet, oldest first */
  private signalsToReplay: ActedSignal[] = [];

  /**
   * `host` runs the bot's strategy on each bar (the engine's strategy, or an AI agent's runtime): given here, for
   * the session's whole life. Undefined: nothing on this server runs the bot's strategy (`open` fails, saying so)
   */
  constructor(
    readonly row: BotRow,
    private readonly host: StrategyHost | undefined,
    private readonly deps: BotSessionDeps,
  ) {
    this.key = { env: deps.exchangeEnv, symbol: row.symbol, interval: row.interval };
    this.tradingAccount = accountOfBot(row);
    this.session = {
      startedAt: (row.started_at ?? deps.clock.now()).getTime(),
      tradesFrom: row.trades_from?.getTime() ?? null,
    };
    this.tradeFrom = sessionBars(row.interval as KlineInterval, this.session, 1).tradeFrom;
    this.sessionLog = new SessionLog(row, deps);
  }

  figures(): PaperFigures | undefined {
    return this.account?.figures();
  }

  /**
   * Prepares the session (live: reconcile, leverage, dead-man switch; the account; the price of the start) and
   * starts following candles and fills; `run` then trades
   */
  async open(): Promise<void> {
    const { row, deps, tradingAccount } = this;
    const host = this.host;
    if (!host) throw new BotFault(`The strategy "${row.strategy}" no longer exists on this server`);
    const interval = row.interval as KlineInterval;
    const { startedAt } = this.session;
    const opening = { account: tradingAccount, tradeFrom: this.tradeFrom, startedAt };
    const account = await openSessionAccount(row, host, opening, deps);
    this.account = account;
    if (account instanceof LiveAccount) {
      this.leverageSet = row.leverage;
      await this.sessionLog.readLoggedFills();
      if (row.started_at) this.signalsToReplay = await deps.actedSignals(row.id, row.started_at);
      this.followFills(account);
    } else if (row.started_at) {
      this.paperPaths = await botSessionStore.paperPaths(deps.db, row.id, row.started_at);
    }

    // `warmupBars` counts the bar the strategy first acts on: the history before it is one bar shorter (none for
    // grid and DCA, which act on their first bar: warming them would spend their start on a bar that trades nothing)
    const { warmFrom } = sessionBars(interval, this.session, host.type.warmupBars(row.params));
    this.next = warmFrom;
    this.start = await SessionStart.of(row, deps, { startedAt, tradeFrom: this.tradeFrom });
    // Candles and fills arriving before `run` has traded the bars since the start wait in the chain behind them
    this.chain = new Promise<void>((resolve) => {
      this.startGate = resolve;
    });
    const intake = new CandleIntake((fn) => this.serial(fn), {
      closed: (e) => this.onCandle(e),
      forming: (e) => this.onPrice(e),
    });
    this.unwatch = deps.watchCandles(row.symbol, row.interval, (e) => intake.push(e));
    await this.sessionLog.readLastLoggedBar();
    // The history is read here, so a start the exchange cannot serve fails as the start's answer
    this.history = { end: barOpenTime(interval, deps.clock.now().getTime()), bars: undefined };
    if (this.history.end > this.next) this.history.bars = await this.barsOf(this.history.end);
  }

  /**
   * Live: fills as they happen, answered by the strategy at once; they wait behind a bar being handled, so the
   * account sees them in order
   */
  private followFills(account: LiveAccount): void {
    const { row } = this;
    this.unfollow = this.deps.followAccount(this.tradingAccount, {
      // The bot's orders, and the ones its conditional orders' triggers placed (their client ids are the
      // exchange's: the account knows them by their order id)
      onOrder: (e) => {
        if (e.symbol !== row.symbol) return;
        if (!isBotClientOrderId(e.clientOrderId) && !account.placedByTrigger(e.orderId)) return;
        this.serial(async () => this.takeAndAnswer(account, await account.onOrderUpdate(e)));
      },
      onConditional: (e) => {
        if (e.symbol !== row.symbol || !isBotClientOrderId(e.clientAlgoId)) return;
        this.serial(async () => this.takeAndAnswer(account, await account.onConditionalUpdate(e)));
      },
      onGap: () => this.serial(async () => this.takeAndAnswer(account, await account.recover())),
    });
  }

  /**
   * After `open`: the bars since the start traded (a fresh session's first step, the last bar closed at its
   * start, acts at once; a resumed one replays them and stands where it stood), then candles and fills as they come
   */
  async run(): Promise<void> {
    const history = this.history;
    this.history = undefined;
    const loading = (async () => {
      if (history) await this.catchUp(history.end, this.sessionLog.lastLoggedBar, true, history.bars);
      // Bars that closed since `open` read them
      await this.catchUp(
        barOpenTime(this.row.interval, this.deps.clock.now().getTime()),
        this.sessionLog.lastLoggedBar,
        true,
      );
      // Live: signals of the bar in progress before a restart handed over again where they came; then fills since
      // the last close (the bar in progress, before a restart too) taken and answered now, not at the next close;
      // a resumed bot's answers are found in the manager's record, not sent again
      const account = this.account;
      await this.replaySignalsBefore(Number.POSITIVE_INFINITY);
      if (account instanceof LiveAccount && !this.closed)
        await this.takeAndAnswer(account, await account.recover());
      // Paper: the bar in progress walked again where it was walked before a restart
      const walked = this.paperPaths.get(this.next);
      if (account instanceof PaperAccount && walked) account.resumeForming(this.next, walked);
    })();
    this.startGate?.(loading.catch(() => {}));
    this.startGate = undefined;
    await loading;
  }

  /**
   * Stops the bot here for good: no more candles, its orders canceled (live: through the order manager, and the
   * dead-man switch disarmed); the session's PnL (position valued at the last close)
   */
  async close(): Promise<{ sessionPnl: number; canceled: number }> {
    this.detach();
    // A bar being handled finishes first (its orders may be on their way), so the cancels below catch them all
    await this.chain;
    const account = this.account;
    if (!account) return { sessionPnl: 0, canceled: 0 };
    if (account instanceof LiveAccount) {
      try {
        return await account.close();
      } finally {
        await this.deps.orders.disarmDeadman(this.tradingAccount, this.row.symbol, this.row.id);
      }
    }
    return account.close();
  }

  /**
   * Ends the session here keeping its orders: a live bot's stand on the exchange, where they may fill (its hold on
   * the dead-man switch let go, so no countdown cancels them without a heartbeat); a paper bot's book lives only in
   * its session, so its orders go with it. The session's PnL, the orders left standing and those withdrawn
   */
  async pause(): Promise<{ sessionPnl: number; standing: number; canceled: number }> {
    this.detach();
    // A bar being handled finishes first: the orders it sends are among those left standing
    await this.chain;
    const account = this.account;
    if (!account) return { sessionPnl: 0, standing: 0, canceled: 0 };
    if (account instanceof LiveAccount) {
      const f = account.figures();
      await this.deps.orders.disarmDeadman(this.tradingAccount, this.row.symbol, this.row.id);
      return { sessionPnl: f.realizedPnl + f.unrealizedPnl, standing: f.openOrders.length, canceled: 0 };
    }
    return { ...(await account.close()), standing: 0 };
  }

  /** Stops following candles without touching orders: the bot goes on elsewhere (shutdown, taken over) */
  detach(): void {
    this.closed = true;
    this.startGate?.(undefined);
    this.startGate = undefined;
    this.host?.close();
    this.unwatch?.();
    this.unwatch = undefined;
    this.unfollow?.();
    this.unfollow = undefined;
    if (this.account instanceof LiveAccount) this.account.dispose();
  }

  /** Runs `fn` after the work queued before it (bars, fills); a failure stops the bot */
  private serial(fn: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.closed) return;
      try {
        await fn();
      } catch (err) {
        if (this.closed) return;
        this.deps.onFault(faultOf(err, 'The bot failed'));
      }
    });
  }

  /**
   * One traded bar on either account (`replay`: a bar handled before a restart, read as stored): the host's work
   * before it, the account trading it (the host's strategy on the account's order port), the host's work after it
   */
  private async tradeBar(bar: BotBar, replay: boolean): Promise<BarOutcome | undefined> {
    const host = this.host;
    await host?.beforeBar(bar, { figures: this.account?.figures(), replay });
    const outcome = await this.accountBar(bar, replay);
    await host?.afterBar(bar, outcome, { figures: this.account?.figures(), replay });
    return outcome;
  }

  private async accountBar(bar: BotBar, replay: boolean): Promise<BarOutcome | undefined> {
    const account = this.account;
    const price = this.start?.priceAt(bar);
    if (account instanceof LiveAccount) {
      try {
        return await account.trade(bar, replay, price, this.sessionView(bar));
      } catch (err) {
        if (err instanceof StrategyError) throw new BotFault(`The strategy failed: ${err.message}`);
        throw new BotFault(`Live trading failed: ${reasonOf(err)}`);
      }
    }
    const traded = this.step(() =>
      account?.trade(this.sessionView(bar), price, this.paperPaths.get(bar.openTime)),
    );
    const first = this.start?.firstBar;
    if (price === undefined || !first || !traded || traded.breach || !(account instanceof PaperAccount))
      return traded;
    // The first step's orders reach the paper book at the start price now, as the exchange would take them
    const begun = this.step(() => account.begin(first.openTime, first.from, bar.openTime));
    const log = [...traded.log, ...begun.log];
    return begun.breach ? { log, breach: begun.breach } : { log };
  }

  /** The bar as the session lived it (the bar in progress at its start from the start price on: `SessionStart.view`) */
  private sessionView(bar: BotBar): BotBar {
    return this.start?.view(bar) ?? bar;
  }

  /**
   * Hands the bars of [next, end) to the account (`loaded`: already read): warm-up before the session's first
   * traded bar, trading from it; bars at or before `lastLogged` are not logged again
   */
  private async catchUp(
    end: number,
    lastLogged: number,
    replay: boolean,
    loaded?: BarColumns,
  ): Promise<void> {
    if (end <= this.next) return;
    const bars = loaded ?? (await this.barsOf(end));
    for (let i = 0; i < bars.openTime.length && !this.closed; i++) {
      const bar = barAt(bars, i);
      if (bar.openTime < this.tradeFrom) this.step(() => this.account?.warm(bar));
      else {
        // Signals that came while this bar was forming, before it closed
        await this.replaySignalsBefore(bar.openTime + 1);
        const outcome = await this.tradeBar(bar, replay);
        if (replay) this.replayed++;
        if (bar.openTime > lastLogged) await this.record(outcome);
        stopOnBreach(outcome);
      }
    }
    this.next = end;
  }

  /**
   * An outside trade signal (the bot's webhook), handed to a live strategy in turn with bars and fills, keyed
   * `key` (the signal's record: its orders are intents `<key>:<n>`). What it did, in words; a limit its orders
   * broke, or a refusal, stops the bot as any step's would
   */
  signal(key: string, signal: TradeSignal): Promise<SignalTaken> {
    let settle: (taken: SignalTaken) => void = () => {};
    const taken = new Promise<SignalTaken>((resolve) => {
      settle = resolve;
    });
    this.serial(async () => {
      let done: Awaited<ReturnType<BotSession['takeSignal']>>;
      try {
        done = await this.takeSignal(key, signal);
      } catch (err) {
        settle({ outcome: 'refused', message: `The bot failed on it: ${reasonOf(err)}`, orders: [] });
        throw err;
      }
      // Answered before a limit its orders broke stops the bot: the sender hears what was sent
      settle(done.taken);
      stopOnBreach(done);
    });
    // The session ended before the signal's turn (a stop, a fault): it was not acted on
    void this.chain.then(() =>
      settle({
        outcome: 'refused',
        message: 'The bot stopped before it could act on the signal',
        orders: [],
      }),
    );
    return taken;
  }

  private async takeSignal(
    key: string,
    signal: TradeSignal,
  ): Promise<{ taken: SignalTaken; breach?: BarOutcome['breach'] }> {
    const account = this.account;
    const refused = (message: string) => ({ taken: { outcome: 'refused' as const, message, orders: [] } });
    if (!(account instanceof LiveAccount)) return refused('A paper bot does not trade on signals');
    const barTime = this.next;
    const done = await account.onSignal(signal, key, await this.marketPrice());
    if (!done) return refused('The bot has not traded its first bar yet');
    // The signal's own line is the service's, written with its outcome: these are its orders'
    await this.record({ log: done.log });
    const taken = {
      ...signalTakenWords(done),
      session: { startedAt: this.session.startedAt, barTime, price: done.price },
    };
    return done.breach ? { taken, breach: done.breach } : { taken };
  }

  /**
   * The exchange's last price now (`/fapi/v2/ticker/price`): a signal acts on the market as it is, not on the last
   * candle the stream brought (a quiet stream's can be seconds old). Undefined when the exchange does not answer: the
   * account then takes the latest price it saw
   */
  private async marketPrice(): Promise<number | undefined> {
    try {
      const price = Number(await this.deps.exchange.lastPrice(this.row.symbol));
      return Number.isFinite(price) && price > 0 ? price : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Live, resuming: the signals acted on before the restart that came before `before` handed to the strategy
   * again at their price. Their orders are found among the stored intents; only fills not logged yet are logged
   */
  private async replaySignalsBefore(before: number): Promise<void> {
    const account = this.account;
    if (!(account instanceof LiveAccount)) return;
    while (!this.closed && (this.signalsToReplay[0]?.barTime ?? Number.POSITIVE_INFINITY) < before) {
      const acted = this.signalsToReplay.shift() as ActedSignal;
      const outcome = await account.replaySignal(acted.signal, acted.key, acted.price, acted.receivedAt);
      await this.record({ log: outcome.log.filter((entry) => entry.kind === 'order_filled') });
      stopOnBreach(outcome);
    }
  }

  /** The closed bars of [next, end) from the kline cache (missing ones asked of the exchange) */
  private async barsOf(end: number): Promise<BarColumns> {
    try {
      return await this.deps.loadBars(this.key, { start: this.next, end });
    } catch (err) {
      throw new BotFault(
        `Could not read ${this.row.symbol} ${this.row.interval} klines from the exchange: ${reasonOf(err)}`,
      );
    }
  }

  /**
   * The price of the bar in progress: a paper account walks its book there (its path kept where the book changed,
   * after the lines that say what happened), a live strategy watching a band is woken beyond it
   */
  private async onPrice(e: KlineEvent): Promise<void> {
    const k = e.kline;
    if (k.openTime < this.next) return;
    const account = this.account;
    if (account instanceof LiveAccount) {
      await this.conclude(await account.onPrice(Number(k.close), k.openTime));
      return;
    }
    if (!(account instanceof PaperAccount)) return;
    const forming = { openTime: k.openTime, open: Number(k.open), high: Number(k.high), low: Number(k.low) };
    const outcome = this.step(() => account.tick({ ...forming, close: Number(k.close) }));
    if (!outcome) return;
    await this.record(outcome);
    if (outcome.path && this.row.started_at)
      await botSessionStore.keepPaperPath(
        this.deps.db,
        this.row.id,
        this.row.started_at,
        k.openTime,
        outcome.path,
      );
    stopOnBreach(outcome);
  }

  private async onCandle(e: KlineEvent): Promise<void> {
    const bar = barOfKline(e.kline);
    if (bar.openTime < this.next) return; // already handled (a replay overlapping the stream)
    // Bars the stream missed come from the cache first, so the account sees every bar in order
    await this.catchUp(bar.openTime, Number.NEGATIVE_INFINITY, false);
    if (this.closed) return;
    const outcome = await this.tradeBar(bar, false);
    this.next = nextBarOpenTime(this.row.interval, bar.openTime);
    await this.conclude(outcome);
  }

  /**
   * Live: fills just taken (their lines in `taken`) and the strategy's answer. The answer goes out first: the
   * fill's lines wait for it, so their writes never stand between the fill and its counter-order (the database
   * serves one query at a time). They are recorded before the answer's own lines, even when the answer failed
   */
  private async takeAndAnswer(account: LiveAccount, taken: BarOutcome['log']): Promise<void> {
    let answered: BarOutcome | undefined;
    try {
      answered = this.closed ? undefined : await account.answer();
    } finally {
      await this.record({ log: taken });
    }
    await this.conclude(answered);
  }

  /** What a step did recorded; a limit it broke (or a refusal) stops the bot */
  private async conclude(outcome: BarOutcome | undefined): Promise<void> {
    await this.record(outcome);
    stopOnBreach(outcome);
  }

  /** Runs the strategy's step; its own failure stops the bot with the strategy's words */
  private step<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof StrategyError) throw new BotFault(`The strategy failed: ${err.message}`);
      throw err;
    }
  }

  /** What a step did, logged (lines already in the log left out); its figures changed */
  private async record(outcome: BarOutcome | undefined): Promise<void> {
    await this.sessionLog.write(outcome);
    this.deps.onFigures();
  }
}
