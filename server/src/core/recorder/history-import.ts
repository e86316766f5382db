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
  /**
   * Pages one symbol's fills or orders from its cursor until a short page, storing each page and moving the cursor
   * past its last id; false when the budget ran out first
   */
  const importPages = async <T>(
    symbol: string,
    cursor: 'trades' | 'orders',
    start: string,
    fetch: (from: string) => Promise<readonly T[]>,
    store: (page: readonly T[]) => Promise<unknown>,
    idOf: (item: T) => string,
  ): Promise<boolean> => {
    for (let from = start; ; ) {
      if (left-- <= 0) return false;
      const page = await fetch(from);
      await store(page);
      const last = page[page.length - 1];
      from = last ? String(BigInt(idOf(last)) + 1n) : from;
      await repo.advance(db, account, symbol, cursor, from, now);
      if (page.length < HISTORY_PAGE_LIMIT) return true;
    }
  };
  for (const symbol of order) {
    const tradesDone = await importPages(
      symbol,
      'trades',
      await repo.cursor(db, account, symbol, 'trades'),
      (from) => exchange.tradesFrom(keys, symbol, from, HISTORY_PAGE_LIMIT),
      (trades) => repo.insertTrades(db, account, trades),
      (trade) => trade.id,
    );
    if (!tradesDone) return cutShort();
    const ordersDone = await importPages(
      symbol,
      'orders',
      await repo.ordersStart(db, account, symbol),
      (from) => exchange.ordersFrom(keys, symbol, from, HISTORY_PAGE_LIMIT),
      (orders) => repo.upsertOrders(db, account, orders),
      (o) => o.orderId,
    );
    if (!ordersDone) return cutShort();
  }
  await repo.markImported(db, account, now);
  return true;
}
