import pg from 'pg';
import type { Database, Queryable, Row } from './database';

// bigint counts (e.g. count(*)) as numbers: our counts stay far below 2^53
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface PostgresOptions {
  connectionString: string;
  /** Schema put first on the search path of every connection; tests use one schema per file */
  schema?: string;
  max?: number;
}

/** Opens a node-postgres pool behind the server's database interface */
export async function openPostgresDatabase(options: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reports the failure
  pool.on('error', () => {});
  // Fail at start, with a clear message, when the server is not reachable
  const probe = await pool.connect().catch(async (err: unknown) => {
    await pool.end();
    throw new Error(
      `Cannot connect to PostgreSQL (DATABASE_URL): ${err instanceof Error ? err.message : err}`,
    );
  });
  probe.release();

  return {
    driver: 'postgres',
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const res = await pool.query<T>(sql, [...params]);
      return res.rows;
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<R extends Row>(sql: string, params: readonly unknown[] = []) {
            const res = await client.query<R>(sql, [...params]);
            return res.rows;
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async close() {
      await pool.end();
    },
  };
}
