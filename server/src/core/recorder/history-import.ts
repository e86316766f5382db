import type { Database } from '../../lib/database/database';
import type { ExchangeAdapter } from '../exchange/exchange-adapter';
import type { HistoryRepository } from './history-repository';
import type { AccountKeys } from './recorder-repository';

/** Rows asked per exchange call (Binance's most for userTrades and allOrders) */
export const HISTORY_PAGE_LIMIT = 1000;
/**
 * Exchange calls per user per round for orders and fills (weight 5 each): 50 of the minute's 2400 at most; a long
 * first import goes on in the next rounds
 */
export const HISTORY_PAGES_PER_ROUND = 10;

export interface HistoryImportDeps {
  db: Database;
  repo: HistoryRepository;
  exchange: Pick<ExchangeAdapter, 'account' | 'tradesFrom' | 'ordersFrom'>;
}

/**
 * Imports the fills and plain orders of a user's account (the environment of `keys`), symbol by symbol (Binance answers them for one symbol at a time): the
 * symbols of the stored income, of the positions and open orders the account lists now, and those already
 * imported. Fills are read on from the next trade id, orders from the oldest one still open (so its fill or
 * cancel is picked up) else the next order id; each answer is stored before the cursor moves, so a crash reads
 * a page again rather than losing it. Skipped (no exchange call) when an import, of this instance or another one,
 * finished less than `freshMs` ago. Returns false when the page budget ran out before every symbol was current
 */
export async function importHistory(
  deps: HistoryImportDeps,
  userId: string,
  keys: AccountKeys,
  now: number,
  freshMs: number,
  budget = HISTORY_PAGES_PER_ROUND,
): Promise<boolean> {
  const { db, repo, exchange } = deps;
  // The rows belong to the account the key opens: its environment's
  const account = { userId, environment: keys.environment };
  const last = await repo.importedAt(db, account);
  if (last !== null && now - last < freshMs) return true;
  const figures = await exchange.account(keys);
  // The v3 account lists every symbol with a position or open orders
  const symbols = new Set([
    ...(await repo.knownSymbols(db, account)),
    ...figures.positions.map((p) => p.symbol),
  ]);
  // Least recently imported first: a budget cut short moves on to the others next round
  const age = await repo.importedAtBySymbol(db, account);
  const order = [...symbols].sort((a, b) => (age.get(a) ?? -1) - (age.get(b) ?? -1) || a.localeCompare(b));
  let left = budget;
  // Cut short: still recorded as an import, so the next one is paced like any other
  const cutShort = async () => {
    await repo.markImported(db, account, now);
    return false;
  };
  for (const symbol of order) {
    for (let from = await repo.cursor(db, account, symbol, 'trades'); ; ) {
      if (left-- <= 0) return cutShort();
      const trades = await exchange.tradesFrom(keys, symbol, from, HISTORY_PAGE_LIMIT);
      await repo.insertTrades(db, account, trades);
      const last = trades[trades.length - 1];
      from = last ? String(BigInt(last.id) + 1n) : from;
      await repo.advance(db, account, symbol, 'trades', from, now);
      if (trades.length < HISTORY_PAGE_LIMIT) break;
    }
    for (let from = await repo.ordersStart(db, account, symbol); ; ) {
      if (left-- <= 0) return cutShort();
      const orders = await exchange.ordersFrom(keys, symbol, from, HISTORY_PAGE_LIMIT);
      await repo.upsertOrders(db, account, orders);
      const last = orders[orders.length - 1];
      from = last ? String(BigInt(last.orderId) + 1n) : from;
      await repo.advance(db, account, symbol, 'orders', from, now);
      if (orders.length < HISTORY_PAGE_LIMIT) break;
    }
  }
  await repo.markImported(db, account, now);
  return true;
}
