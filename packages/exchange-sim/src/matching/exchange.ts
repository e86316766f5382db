import type { Clock } from '../common/clock';
import { Decimal } from '../common/format';
import { hash32 } from '../common/rng';
import type { SymbolSpec } from '../common/symbols';
import { type AccountFigures, figures } from './account-figures';
import { type CreateAccountInput, createAccount, transfer } from './accounts';
import { accountAdlQuantiles } from './adl';
import { reachesTrigger } from './algo';
import {
  cancelAlgo,
  cancelAllAlgo,
  findAlgo,
  type PlaceAlgoInput,
  placeAlgo,
  triggerAlgo,
} from './algo-orders';
import { executeResting } from './book';
import { countdownDeadline, fireCountdowns, setCountdown } from './countdown';
import type { UserEvent } from './events';
import { finish } from './execution';
import { lastFunding, settleFunding } from './funding';
import { checkLiquidation } from './liquidation';
import { FUNDING_INTERVAL_MS, Market } from './market';
import {
  cancelAll,
  cancelOrder,
  findOrder,
  type ModifyOrderInput,
  modifyOrder,
  type PlaceOrderInput,
  placeOrder,
} from './orders';
import { type PriceCommand, type PriceControlState, parsePriceCommand, SteeredFeed } from './price-control';
import { GeneratedFeed, type PriceSource } from './price-feed';
import { screen } from './screen';
import { changePositionMargin, setDualSide, setLeverage, setMarginType } from './settings';
import {
  config,
  createState,
  type ExchangeState,
  isOpen,
  marketOf,
  openAlgoOrders,
  openOrders,
} from './state';
import type { Account, AlgoOrder, MarginType, Order, PositionSide } from './types';

const YEAR_DAYS = 365;
const DAY_MS = 86_400_000;

export interface ExchangeOptions {
  clock: Clock;
  /** Seed of the price generator: same seed and clock, same prices */
  seed?: number;
  symbols: readonly SymbolSpec[];
  /** Days of 1-minute history before the clock's start (default 365) */
  historyDays?: number;
  /** Price sources to use instead of the generator (e.g. a CSV replay), one per symbol */
  feeds?: readonly PriceSource[];
  /** First order id; real ETHUSDT ids exceed 2^53, so the default does too, to catch clients that parse them lossily */
  firstOrderId?: bigint;
  makerRate?: string;
  takerRate?: string;
  /** Pins every symbol's premium over the index (mark = last price, funding rate known in advance) */
  constantPremium?: number;
  /**
   * Scales the synthetic book's level sizes (default 1: a level holds about a twentieth of a typical minute's
   * volume); small values let tests see orders walk the book and fill in parts
   */
  bookDepth?: number;
}

/**
 * The simulated exchange: accounts, orders, positions and the matching, funding and liquidation that move them.
 * Nothing here knows HTTP; the `http/` and `ws/` layers translate Binance's protocol to these calls.
 * Time only moves through {@link Exchange.sync}, which replays every second since the last call in order, so a test
 * that jumps the clock 8 hours sees the same fills, funding and liquidations as a live run.
 * This class is the small core: it owns the {@link ExchangeState} and the clock's progress, and each call syncs time,
 * then hands over to the module of its concern (`orders.ts`, `algo-orders.ts`, `settings.ts`, `funding.ts`, …).
 */
export class Exchange {
  readonly clock: Clock;
  readonly markets: Map<string, Market>;
  readonly #s: ExchangeState;
  readonly #tickListeners = new Set<(now: number) => void>();
  readonly #steered = new Map<string, SteeredFeed>();
  #processed: number;

  constructor(options: ExchangeOptions) {
    this.clock = options.clock;
    const seed = options.seed ?? 1;
    this.#s = createState({
      clock: options.clock,
      makerRate: new Decimal(options.makerRate ?? '0.0002'),
      takerRate: new Decimal(options.takerRate ?? '0.0005'),
      firstOrderId: options.firstOrderId ?? 8_389_765_612_825_190_000n,
    });
    this.markets = this.#s.markets;
    const now = this.clock.now();
    const historyDays = options.historyDays ?? YEAR_DAYS;
    if (!(historyDays >= 0)) throw new Error(`historyDays must be 0 or more, got ${historyDays}`);
    if (options.symbols.length === 0 && !options.feeds?.length)
      throw new Error('The simulator needs at least one symbol');
    const feeds =
      options.feeds ??
      options.symbols.map((spec) => new GeneratedFeed(spec, seed, now - historyDays * DAY_MS));
    feeds.forEach((feed, i) => {
      const phase = (hash32(seed, i) / 4294967296) * Math.PI * 2;
      // Every price is read through the steered feed, so a price set by a test moves everything Binance-facing
      const steered = new SteeredFeed(feed);
      this.#steered.set(feed.spec.symbol, steered);
      this.markets.set(
        feed.spec.symbol,
        new Market(steered, phase, options.constantPremium, options.bookDepth),
      );
    });
    this.#processed = Math.floor(now / 1000) * 1000;
  }

  // ---- subscriptions -------------------------------------------------------------------------------------------

  /** Listens to every account's user-data events (ORDER_TRADE_UPDATE, ACCOUNT_UPDATE, …) */
  onUserEvent(listener: (accountId: number, event: UserEvent) => void): () => void {
    this.#s.userListeners.add(listener);
    return () => this.#s.userListeners.delete(listener);
  }

  /**
   * Tells every user-data listener of `event` of `accountId` again, as it was (a stream repeating events after a
   * reconnect, or delivering them out of order): for tests that consumers take each change once
   */
  redeliverUserEvent(accountId: number, event: UserEvent): void {
    for (const l of this.#s.userListeners) l(accountId, event);
  }

  /** Called after each {@link sync} that moved time, with the new time; market streams push from here */
  onTick(listener: (now: number) => void): () => void {
    this.#tickListeners.add(listener);
    return () => this.#tickListeners.delete(listener);
  }

  // ---- accounts ------------------------------------------------------------------------------------------------

  /** Opens an account (as the admin API does); throws an Error naming the bad field */
  createAccount(input: CreateAccountInput = {}): Account {
    return createAccount(this.#s, input);
  }

  /** The account of an API key */
  accountByKey(apiKey: string): Account | undefined {
    return this.#s.byKey.get(apiKey);
  }

  /** The account of an id */
  account(id: number): Account | undefined {
    return this.#s.accounts.get(id);
  }

  // ---- market --------------------------------------------------------------------------------------------------

  /** The market of a symbol; -1102 when none is given, -1121 when it is not listed */
  market(symbol: string | undefined): Market {
    return marketOf(this.#s, symbol);
  }

  /** Funding rate settled at the last funding time before `now` */
  lastFunding(symbol: string, now: number): { rate: number; time: number } {
    return lastFunding(this.#s, symbol, now);
  }

  /** The account's leverage and margin type for a symbol (20×, cross until changed) */
  config(account: Account, symbol: string): { leverage: number; marginType: MarginType } {
    return config(account, symbol);
  }

  // ---- time ----------------------------------------------------------------------------------------------------

  /** Accounts the per-second loop has something to do for */
  #active(): Account[] {
    return [...this.#s.accounts.values()].filter(
      (a) => a.positions.size > 0 || a.openOrders.size > 0 || this.openAlgoOrders(a).length > 0,
    );
  }

  /** Processes every whole second up to the clock's now: resting fills, funding, liquidations; then ticks */
  sync(): void {
    const target = Math.floor(this.clock.now() / 1000) * 1000;
    if (target <= this.#processed) return;
    const active = this.#active();
    if (active.length === 0) {
      // Nothing to cancel, but a countdown that ended is spent
      fireCountdowns(this.#s, target);
      this.#processed = target;
    } else {
      for (let t = this.#processed + 1000; t <= target; t += 1000) {
        this.#processed = t;
        this.#step(t, active);
      }
    }
    for (const l of this.#tickListeners) l(target);
  }

  /**
   * One simulated second: GTD expiry and resting fills, conditional triggers, funding, liquidation. A price command
   * re-runs the current second at the new price without funding, which that second has already settled
   */
  #step(t: number, accounts: Account[], funding = true): void {
    // Dead-man switches first: an order cancelled at its deadline does not fill in that second
    fireCountdowns(this.#s, t);
    const marks = new Map<string, number>();
    const markOf = (symbol: string): number => {
      let m = marks.get(symbol);
      if (m === undefined) {
        m = this.market(symbol).markPrice(t);
        marks.set(symbol, m);
      }
      return m;
    };
    for (const account of accounts) {
      for (const { order, price } of screen(this.#s, account).open) {
        if (!isOpen(order)) continue;
        if (order.goodTillDate > 0 && t >= order.goodTillDate) {
          finish(this.#s, account, order, 'EXPIRED', t);
          continue;
        }
        const last = this.market(order.symbol).lastPrice(t);
        if (order.side === 'BUY' ? last <= price : last >= price) executeResting(this.#s, account, order, t);
      }
      for (const algo of screen(this.#s, account).algos) {
        if (algo.status !== 'NEW') continue;
        const market = this.market(algo.symbol);
        const price = algo.workingType === 'MARK_PRICE' ? markOf(algo.symbol) : market.lastPrice(t);
        if (reachesTrigger(algo, price)) triggerAlgo(this.#s, account, algo, t);
      }
      if (funding && t % FUNDING_INTERVAL_MS === 0) settleFunding(this.#s, account, t);
      if (account.positions.size > 0) checkLiquidation(this.#s, account, t, markOf);
    }
  }

  // ---- price control (admin API, tests) ---------------------------------------------------------------------

  #steeredFeed(symbol: string): SteeredFeed {
    const feed = this.#steered.get(symbol);
    if (!feed)
      throw new Error(
        `No symbol ${symbol} on the simulator; listed: ${[...this.#steered.keys()].join(', ')}`,
      );
    return feed;
  }

  /** Whether the simulator lists a symbol */
  hasSymbol(symbol: string): boolean {
    return this.#steered.has(symbol);
  }

  /**
   * Moves a symbol's price from now on (`price-control.ts`: a jump, a path, a straight move to a target), then
   * holds it until {@link releasePrice}. Resting orders, conditional orders and liquidations react at once, as a
   * trade at the new price would make them on Binance; market streams push it on the next second. Throws an Error
   * naming the bad field (price off the tick, ≤ 0, outside the symbol's min/max) or the unknown symbol
   */
  setPrice(symbol: string, command: PriceCommand): PriceControlState {
    const feed = this.#steeredFeed(symbol);
    const points = parsePriceCommand(feed.spec, command);
    this.sync();
    const now = this.clock.now();
    this.#repricing(symbol, now, () => feed.steer(points, now));
    this.#step(now, this.#active(), false);
    return this.priceControl(symbol);
  }

  /** Runs a price change and tells the market when it moved the price of the current second (so its book) */
  #repricing(symbol: string, now: number, change: () => void): void {
    const market = this.market(symbol);
    const before = market.lastPrice(now);
    change();
    if (market.lastPrice(now) !== before) market.reprice(now, before);
  }

  /** Hands a symbol back to its random walk (or replay), continuing from the price it has now, without a jump */
  releasePrice(symbol: string): PriceControlState {
    const feed = this.#steeredFeed(symbol);
    this.sync();
    const now = this.clock.now();
    // Continues from the price of now, so this second normally keeps its price; a rounding step would still count
    this.#repricing(symbol, now, () => feed.release(now));
    return this.priceControl(symbol);
  }

  /** A symbol's price now and who moves it */
  priceControl(symbol: string): PriceControlState {
    const feed = this.#steeredFeed(symbol);
    const now = this.clock.now();
    const market = this.market(symbol);
    return {
      symbol,
      ...feed.mode(now),
      lastPrice: market.lastPrice(now),
      markPrice: market.markPrice(now),
      indexPrice: market.indexPrice(now),
      time: now,
    };
  }

  // ---- orders --------------------------------------------------------------------------------------------------

  /** Open orders of an account, optionally for one symbol */
  openOrders(account: Account, symbol?: string): Order[] {
    return openOrders(account, symbol);
  }

  /** An order by id, or by client id (the open one, else the newest) */
  findOrder(account: Account, symbol: string, orderId?: bigint, clientOrderId?: string): Order | undefined {
    return findOrder(account, symbol, orderId, clientOrderId);
  }

  /**
   * Places an order the way Binance's matching engine accepts it. Returns the order as it stood on acceptance
   * (`ack`, what newOrderRespType=ACK answers) and after immediate matching (`result`).
   */
  placeOrder(account: Account, input: PlaceOrderInput): { ack: Order; result: Order } {
    this.sync();
    return placeOrder(this.#s, account, input, this.clock.now());
  }

  /** Amends a resting LIMIT order in place, as Binance's `PUT /fapi/v1/order` does (rules in `orders.ts`) */
  modifyOrder(account: Account, input: ModifyOrderInput): Order {
    this.sync();
    return modifyOrder(this.#s, account, input);
  }

  /** Cancels an open order by id or client id; -2011 when it is unknown or no longer open */
  cancelOrder(account: Account, symbol: string, orderId?: bigint, clientOrderId?: string): Order {
    this.sync();
    return cancelOrder(this.#s, account, symbol, orderId, clientOrderId);
  }

  /** Cancels every open order of a symbol */
  cancelAll(account: Account, symbol: string): void {
    this.sync();
    cancelAll(this.#s, account, symbol);
  }

  /**
   * Arms, re-arms or (with 0) disarms the dead-man switch of a symbol: its open orders are cancelled when
   * `countdownMs` passes without another call (`countdown.ts`)
   */
  countdownCancelAll(account: Account, symbol: string, countdownMs: number): void {
    this.sync();
    setCountdown(this.#s, account, symbol, countdownMs);
  }

  /** When the symbol's armed dead-man switch fires (ms since epoch), if armed */
  countdownDeadline(account: Account, symbol: string): number | undefined {
    return countdownDeadline(this.#s, account, symbol);
  }

  // ---- conditional (algo) orders ------------------------------------------------------------------------------

  /** Untriggered conditional orders of an account, optionally for one symbol */
  openAlgoOrders(account: Account, symbol?: string): AlgoOrder[] {
    return openAlgoOrders(account, symbol);
  }

  /** A conditional order by id, or by client id (the untriggered one, else the newest) */
  findAlgo(account: Account, algoId?: number, clientAlgoId?: string): AlgoOrder | undefined {
    return findAlgo(account, algoId, clientAlgoId);
  }

  /**
   * Accepts a conditional order as Binance's algo service does: parameters and filters are checked, margin is not
   * (untriggered algo orders hold none); one that would fire at once is refused with -2021
   */
  placeAlgo(account: Account, input: PlaceAlgoInput): AlgoOrder {
    this.sync();
    return placeAlgo(this.#s, account, input);
  }

  /** Cancels an untriggered conditional order; -2011 otherwise */
  cancelAlgo(account: Account, algoId?: number, clientAlgoId?: string): AlgoOrder {
    this.sync();
    return cancelAlgo(this.#s, account, algoId, clientAlgoId);
  }

  /** Cancels every untriggered conditional order of a symbol */
  cancelAllAlgo(account: Account, symbol: string): void {
    this.sync();
    cancelAllAlgo(this.#s, account, symbol);
  }

  // ---- settings ------------------------------------------------------------------------------------------------

  /** Sets a symbol's leverage; pushes ACCOUNT_CONFIG_UPDATE */
  setLeverage(
    account: Account,
    symbol: string,
    leverage: number,
  ): { leverage: number; maxNotionalValue: number } {
    this.sync();
    return setLeverage(this.#s, account, symbol, leverage);
  }

  /** Switches a symbol between CROSSED and ISOLATED margin */
  setMarginType(account: Account, symbol: string, marginType: MarginType): void {
    this.sync();
    setMarginType(this.#s, account, symbol, marginType);
  }

  /** Adds margin to an isolated position or takes some out (`POST /fapi/v1/positionMargin`) */
  changePositionMargin(
    account: Account,
    symbol: string,
    positionSide: PositionSide,
    amount: Decimal,
    direction: 'add' | 'reduce',
  ): void {
    this.sync();
    changePositionMargin(this.#s, account, symbol, positionSide, amount, direction);
  }

  /** Turns the account's BNB fee discount on or off (`POST /fapi/v1/feeBurn`): fees in BNB, 10 % off */
  setFeeBurn(account: Account, on: boolean): void {
    this.sync();
    account.feeBurn = on;
  }

  /** Switches the account between one-way and hedge (dual-side) position mode */
  setDualSide(account: Account, dual: boolean): void {
    this.sync();
    /** Switches the account between one-way and hedge (dual-side) position mode */
    setDualSide(account, dual);
  }

  // ---- figures -------------------------------------------------------------------------------------------------

  /** The account's margin picture at the mark prices of `t` (default now) */
  figures(account: Account, t = this.clock.now()): AccountFigures {
    return figures(this.#s, account, t);
  }

  /**
   * ADL quantile (0-4) of each open position of `account`, keyed `${symbol}:${positionSide}`, ranked against the
   * same symbol and side of every account. Binance refreshes these every 30 s: they are computed at the marks of the
   * last 30 s boundary
   */
  adlQuantiles(account: Account): Map<string, number> {
    return accountAdlQuantiles(this.#s, account);
  }

  /** Applies a deposit or withdrawal from the admin API, booked as TRANSFER income */
  transfer(account: Account, asset: string, amount: Decimal): void {
    transfer(this.#s, account, asset, amount);
  }
}
