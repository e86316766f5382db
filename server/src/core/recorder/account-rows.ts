import type { Queryable } from '../../lib/database/database';

/** A timestamptz column as ms since epoch (float8: both drivers hand it back as a number) */
export const ms = (column: string): string => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * The WHERE clause and parameters of one account's rows of [from, to]: `$1` the user, `$2` the environment, `$3`
 * and `$4` the range's ends on `time`, then `column = $n` for each filter given (undefined: any value). Every
 * column is qualified by `alias`; the column names are constants of the caller, never the request's text
 */
export function accountRangeWhere(
  alias: string,
  account: { userId: string; environment: string },
  range: { from: number; to: number },
  filters: Record<string, string | undefined> = {},
): { sql: string; params: unknown[] } {
  const params: unknown[] = [account.userId, account.environment, new Date(range.from), new Date(range.to)];
  const clauses = [
    `${alias}.user_id = $1`,
    `${alias}.environment = $2`,
    `${alias}.time >= $3`,
    `${alias}.time <= $4`,
  ];
  for (const [column, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    params.push(value);
    clauses.push(`${alias}.${column} = $${params.length}`);
  }
  return { sql: clauses.join(' AND '), params };
}

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
