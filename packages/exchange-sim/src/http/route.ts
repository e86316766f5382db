import type { SymbolSpec } from '../common/symbols';
import type { Exchange } from '../matching/exchange';
import type { Market } from '../matching/market';
import type { Account } from '../matching/types';
import type { Params } from './params';
import type { OrderCost } from './rate-limit';

/**
 * Binance's security types: NONE needs nothing, USER_STREAM only the API key, SIGNED key + signature + timestamp.
 * `SIGNED_WALLET` is SIGNED for the wallet host (sapi), which does not require the futures permission.
 */
export type Security = 'NONE' | 'USER_STREAM' | 'SIGNED' | 'SIGNED_WALLET';

export interface RouteContext {
  exchange: Exchange;
  params: Params;
  /** Set for every security type except NONE */
  account?: Account;
  now: number;
  limits: { weightPerMinute: number; ordersPerMinute: number; ordersPer10s: number };
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  security: Security;
  /** IP request weight, or a function of the parameters (klines by limit, tickers with or without symbol) */
  weight: number | ((params: Params) => number);
  /** Counts against the account's ORDERS limits: one order, or a cost of its own (batches) */
  countsAsOrder?: boolean | OrderCost;
  handler: (ctx: RouteContext) => unknown;
}

export function requireAccount(ctx: RouteContext): Account {
  if (!ctx.account) throw new Error(`Route needs an authenticated account`);
  return ctx.account;
}

/** The market named by the mandatory `symbol` parameter (-1102 when missing, -1121 when unknown) */
export function marketParam(ctx: RouteContext): Market {
  return ctx.exchange.market(ctx.params.get('symbol'));
}

/** The market of an optional `symbol` parameter, or every market without it */
export function marketsParam(ctx: RouteContext): Market[] {
  const symbol = ctx.params.get('symbol');
  return symbol ? [ctx.exchange.market(symbol)] : [...ctx.exchange.markets.values()];
}

/** The optional `symbol` parameter, checked (-1121) when present */
export function optionalSymbol(ctx: RouteContext): string | undefined {
  const symbol = ctx.params.get('symbol');
  return symbol === undefined ? undefined : ctx.exchange.market(symbol).spec.symbol;
}

/** Weight of endpoints that cost more without a symbol (all symbols at once) */
export function symbolWeight(one: number, all: number): (params: Params) => number {
  return (p) => (p.has('symbol') ? one : all);
}

/**
 * `GET` of the account's open orders of one family (plain or conditional), of the `symbol` or of every symbol:
 * Binance weighs both families' lists alike (1 with a symbol, 40 without)
 */
export function openOrdersRoute<T extends { symbol: string }>(
  path: string,
  open: (exchange: Exchange, account: Account, symbol: string | undefined) => T[],
  view: (item: T, spec: SymbolSpec) => unknown,
): Route {
  return {
    method: 'GET',
    path,
    security: 'SIGNED',
    weight: symbolWeight(1, 40),
    handler: (ctx) => {
      const symbol = optionalSymbol(ctx);
      return open(ctx.exchange, requireAccount(ctx), symbol).map((o) =>
        view(o, ctx.exchange.market(o.symbol).spec),
      );
    },
  };
}

/** `DELETE` of every open order of one family (plain or conditional) of the `symbol`: Binance answers both alike */
export function cancelAllRoute(
  path: string,
  cancel: (exchange: Exchange, account: Account, symbol: string) => void,
): Route {
  return {
    method: 'DELETE',
    path,
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const symbol = marketParam(ctx).spec.symbol;
      cancel(ctx.exchange, requireAccount(ctx), symbol);
      return { code: 200, msg: 'The operation of cancel all open order is done.' };
    },
  };
}
