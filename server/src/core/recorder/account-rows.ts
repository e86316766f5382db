import type { Queryable } from '../../lib/database/database';

/** Rows one statement writes: a page of 1000 is five round trips, well under any parameter limit */
const ROWS_PER_STATEMENT = 200;

/**
 * Writes one account's rows, 200 to a statement: each row is `($1 user, $2 environment, …its values)` and
 * `statement` wraps the VALUES list. Returns how many rows the statements returned: with `ON CONFLICT DO NOTHING
 * RETURNING`, the new ones.
 */
export async function writeAccountRows<T>(
  db: Queryable,
  account: { userId: string; environment: string },
  items: readonly T[],
  values: (item: T) => unknown[],
  statement: (valuesList: string) => string,
): Promise<number> {
  let returned = 0;
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) {
    const params: unknown[] = [account.userId, account.environment];
    const rows = items.slice(i, i + ROWS_PER_STATEMENT).map((item) => {
      const row = values(item);
      const at = params.length;
      params.push(...row);
      return `($1, $2, ${row.map((_, k) => `$${at + k + 1}`).join(', ')})`;
    });
    returned += (await db.query(statement(rows.join(', ')), params)).length;
  }
  return returned;
}
