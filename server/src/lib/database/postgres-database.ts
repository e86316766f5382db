import pg from 'pg';
import { type Clock, systemClock, type Timer } from '../clock';
import { assertChannel, type Database, type Queryable, type Row } from './database';

// bigint counts (e.g. count(*)) as numbers: our counts stay far below 2^53
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface PostgresOptions {
  connectionString: string;
  /** Schema put first on the search path of every connection; tests use one schema per file */
  schema?: string;
  max?: number;
  /** Times the LISTEN reconnect retry (the system clock unless a test moves one by hand) */
  clock?: Clock;
}

/** How long a lost LISTEN connection waits before it is opened again */
export const LISTEN_RETRY_MS = 1000;

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
  const clientConfig = {
    connectionString: options.connectionString,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  };
  const listeners = new Set<() => Promise<void>>();
  const clock = options.clock ?? systemClock;

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
    async listen(channel: string, onPayload: (payload: string) => void) {
      assertChannel(channel);
      // One dedicated connection per listener, so LISTEN stays on it. A lost connection is re-opened and LISTEN
      // re-issued; pushes sent while it was down are lost (pushes are notices for refetching, not the data)
      let client: pg.Client | undefined;
      let stopped = false;
      let retry: Timer | undefined;
      const start = async (): Promise<void> => {
        const c = new pg.Client(clientConfig);
        c.on('notification', (msg) => {
          if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
        });
        c.on('error', () => {
          if (stopped || client !== c) return;
          client = undefined;
          c.end().catch(() => {});
          retry = clock.after(LISTEN_RETRY_MS, () => void start().catch(() => {}));
        });
        await c.connect();
        await c.query(`LISTEN ${channel}`);
        client = c;
      };
      await start();
      const stop = async () => {
        stopped = true;
        retry?.cancel();
        listeners.delete(stop);
        await client?.end().catch(() => {});
      };
      listeners.add(stop);
      return stop;
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}
