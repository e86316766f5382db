import type { Clock } from '../common/clock';
import { errors } from '../common/errors';
import { Decimal } from '../common/format';
import { randomAlphanumeric } from '../common/secrets';
import type { UserEvent } from './events';
import type { Market } from './market';
import type { Screen } from './screen';
import type { Account, AlgoOrder, MarginType, Order, PositionSide, Side } from './types';

const DEFAULT_LEVERAGE = 20;

/** Listener of every account's user-data events */
export type UserListener = (accountId: number, event: UserEvent) => void;

/**
 * Everything the simulated exchange holds, shared by the modules of `matching/` (accounts, orders, fills, funding,
 * liquidation…), each a set of plain functions over it; `Exchange` (exchange.ts) owns one and composes them
 */
export interface ExchangeState {
  readonly clock: Clock;
  readonly markets: Map<string, Market>;
  readonly accounts: Map<number, Account>;
  readonly byKey: Map<string, Account>;
  readonly userListeners: Set<UserListener>;
  /** Default fee rates of new accounts */
  readonly makerRate: Decimal;
  readonly takerRate: Decimal;
  /** Funding rate settled at each symbol's last funding time */
  readonly lastFunding: Map<string, { rate: number; time: number }>;
  nextOrderId: bigint;
  nextTradeId: number;
  nextTranId: number;
  nextAccountId: number;
  nextAlgoId: number;
  /** Bumped on every change of any account, so cached screens know they are stale */
  version: number;
  /** Per account, the plain-number view the per-second loop last read (`screen.ts`) */
  readonly screens: WeakMap<Account, Screen>;
  /** Armed dead-man switches (`countdown.ts`), keyed `accountId:symbol` */
  readonly countdowns: Map<string, { account: Account; symbol: string; deadline: number }>;
}

/** An exchange with no markets or accounts yet; ids start at `firstOrderId` (orders), 1 and 1,000,000 (algo) */
export function createState(options: {
  clock: Clock;
  makerRate: Decimal;
  takerRate: Decimal;
  firstOrderId: bigint;
}): ExchangeState {
  return {
    clock: options.clock,
    markets: new Map(),
    accounts: new Map(),
    byKey: new Map(),
    userListeners: new Set(),
    makerRate: options.makerRate,
    takerRate: options.takerRate,
    lastFunding: new Map(),
    nextOrderId: options.firstOrderId,
    nextTradeId: 1,
    nextTranId: 1,
    nextAccountId: 1,
    nextAlgoId: 1_000_000,
    version: 0,
    screens: new WeakMap(),
    countdowns: new Map(),
  };
}

/** The market of a symbol; -1102 when none is given, -1121 when it is not listed */
export function marketOf(s: ExchangeState, symbol: string | undefined): Market {
  if (symbol === undefined || symbol === '') throw errors.mandatory('symbol');
  const m = s.markets.get(symbol);
  if (!m) throw errors.badSymbol();
  return m;
}

/** An account's leverage and margin type for a symbol, created with Binance's defaults (20×, cross) on first use */
export function config(account: Account, symbol: string): { leverage: number; marginType: MarginType } {
  let c = account.configs.get(symbol);
  if (!c) {
    c = { leverage: DEFAULT_LEVERAGE, marginType: 'CROSSED' };
    account.configs.set(symbol, c);
  }
  return c;
}

/** Records a change and tells listeners; the event is only built when someone listens (it costs a figures pass) */
export function emit(s: ExchangeState, account: Account, make: () => UserEvent): void {
  s.version++;
  if (s.userListeners.size === 0) return;
  const event = make();
  for (const l of s.userListeners) l(account.id, event);
}

export function positionKey(symbol: string, side: PositionSide): string {
  return `${symbol}:${side}`;
}

/** Signed amount of an account's position (0 when it has none) */
export function positionAmt(account: Account, symbol: string, side: PositionSide): Decimal {
  return account.positions.get(positionKey(symbol, side))?.amt ?? new Decimal(0);
}

/** How much of a position of signed amount `amt` an order of `side` closes at most: a buy closes a short, a sell a long */
export function closableBy(side: Side, amt: Decimal): Decimal {
  return side === 'BUY' ? Decimal.max(0, amt.neg()) : Decimal.max(0, amt);
}

export function isOpen(o: Order): boolean {
  return o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
}

/** Open orders of an account, optionally for one symbol */
export function openOrders(account: Account, symbol?: string): Order[] {
  const all = [...account.openOrders.values()];
  return symbol ? all.filter((o) => o.symbol === symbol) : all;
}

/** Untriggered conditional orders of an account, optionally for one symbol */
export function openAlgoOrders(account: Account, symbol?: string): AlgoOrder[] {
  return [...account.algoOrders.values()].filter(
    (a) => a.status === 'NEW' && (!symbol || a.symbol === symbol),
  );
}

/** Binance generates 22 random letters and digits when the client sends no id */
export function newClientOrderId(): string {
  return randomAlphanumeric(22);
}
