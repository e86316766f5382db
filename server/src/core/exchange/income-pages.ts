import type { ExchangeAdapter, ExchangeKeys, IncomeEntry } from './exchange-adapter';

/** Binance's largest income page */
export const INCOME_PAGE_LIMIT = 1000;
/** Pages read for one range at most; a range with more entries is left for the caller's next round */
export const INCOME_MAX_PAGES = 50;

/** The identity of an income entry: Binance's tranId is unique per income type and account */
export const incomeKey = (e: Pick<IncomeEntry, 'incomeType' | 'tranId'>): string =>
  `${e.incomeType}:${e.tranId}`;

/**
 * Every income entry of [from, to] (ms, both inclusive), oldest first, paging forward by time. A page restarts at
 * the last entry's millisecond, since more entries may share it; entries seen twice are dropped by `incomeKey`.
 * `complete` is false when `INCOME_MAX_PAGES` ran out first (then `entries` end somewhere inside the range)
 */
export async function readIncome(
  exchange: Pick<ExchangeAdapter, 'income'>,
  keys: ExchangeKeys,
  range: { from: number; to: number },
  maxPages = INCOME_MAX_PAGES,
): Promise<{ entries: IncomeEntry[]; complete: boolean }> {
  const seen = new Set<string>();
  const entries: IncomeEntry[] = [];
  let cursor = range.from;
  for (let page = 0; page < maxPages; page++) {
    const rows = await exchange.income(keys, {
      startTime: cursor,
      endTime: range.to,
      limit: INCOME_PAGE_LIMIT,
    });
    for (const row of rows) {
      const key = incomeKey(row);
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push(row);
    }
    if (rows.length < INCOME_PAGE_LIMIT) return { entries, complete: true };
    const last = rows[rows.length - 1]?.time ?? cursor;
    // A full page inside one millisecond cannot be paged by time: move on rather than loop
    cursor = last > cursor ? last : cursor + 1;
    if (cursor > range.to) return { entries, complete: true };
  }
  return { entries, complete: false };
}
