/** Rows come back as plain objects keyed by column name */
export type Row = Record<string, unknown>;

/** Something that runs one parameterised statement ($1, $2, …): the database itself or an open transaction */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/**
 * The one small database interface of the server. PGlite (embedded) and node-postgres (DATABASE_URL) both speak
 * PostgreSQL, so one SQL dialect and one migration set serve both.
 */
export interface Database extends Queryable {
  readonly driver: 'pglite' | 'postgres';
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations) */
  exec(sql: string): Promise<void>;
  /**
   * LISTENs on `channel` (a plain lower-case identifier) and calls `onPayload` with each NOTIFY payload; resolves
   * once listening, with a function that stops. PGlite delivers within its process; PostgreSQL across processes
   * through one dedicated connection (a pooled one would lose the LISTEN when returned to the pool).
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** LISTEN takes an identifier, not a parameter: only plain lower-case names are accepted, so nothing needs quoting */
export function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) {
    throw new Error(
      `Invalid notification channel "${channel}": use lower-case letters, digits and _ (max 63)`,
    );
  }
}
