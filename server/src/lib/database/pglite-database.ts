import { PGlite } from '@electric-sql/pglite';
import { assertChannel, type Database, type Queryable, type Row } from './database';

/**
 * Opens the embedded PostgreSQL (WASM). `dataDir` undefined keeps it in memory (tests). PGlite serves one
 * connection, so its transactions are serialised by the library itself. `loadDataDir` starts from a
 * `dumpDataDir()` tarball, skipping initdb (most of the seconds a fresh PGlite costs).
 */
export async function openPgliteDatabase(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  const pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  return pgliteDatabase(pg);
}

/** The `Database` over an open PGlite (the test snapshot migrates one, then dumps it) */
export function pgliteDatabase(pg: PGlite): Database {
  return {
    driver: 'pglite',
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const res = await pg.query<T>(sql, [...params]);
      return res.rows;
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return pg.transaction(async (tx) =>
        fn({
          async query<R extends Row>(sql: string, params: readonly unknown[] = []) {
            const res = await tx.query<R>(sql, [...params]);
            return res.rows;
          },
        }),
      );
    },
    async exec(sql: string) {
      await pg.exec(sql);
    },
    async listen(channel: string, onPayload: (payload: string) => void) {
      assertChannel(channel);
      return pg.listen(channel, onPayload);
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
}
