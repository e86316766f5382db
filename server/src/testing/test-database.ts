import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from '../lib/database/database';
import { migrate, readMigrations } from '../lib/database/migrate';
import { openPgliteDatabase, pgliteDatabase } from '../lib/database/pglite-database';
import { openPostgresDatabase } from '../lib/database/postgres-database';

export type Driver = 'pglite' | 'postgres';

/**
 * Which database a test runs on: in-memory PGlite, the local test PostgreSQL (see `postgresUrl`), or the
 * PostgreSQL at `url`. Each PostgreSQL variant gets a throw-away schema of its own
 */
export type TestDatabaseSpec = Driver | { url: string };

/** The local PostgreSQL of the dev and CI machines (trust auth); override with KESTREL_TEST_DATABASE_URL */
function postgresCandidates(): string[] {
  return process.env.KESTREL_TEST_DATABASE_URL
    ? [process.env.KESTREL_TEST_DATABASE_URL]
    : ['postgres://postgres@127.0.0.1:5432/test', 'postgres://root@127.0.0.1:5432/test'];
}

let reachable: Promise<string | undefined> | undefined;

/** The first candidate URL that accepts a connection within 2 s, or undefined (the PostgreSQL variants skip) */
export function postgresUrl(): Promise<string | undefined> {
  reachable ??= (async () => {
    for (const url of postgresCandidates()) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return url;
      } catch {
        // try the next candidate
      } finally {
        await client.end().catch(() => {});
      }
    }
    return undefined;
  })();
  return reachable;
}

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '../..');

let snapshot: Promise<string> | undefined;

/**
 * Path of a tarball of a PGlite cluster with every migration applied and no rows. A fresh PGlite spends most of
 * its start in initdb (~10 s of CPU on a busy 2-core machine) and then about a second more in the migrations: both
 * are done once per PGlite version and set of migrations (their hash is in the name, so editing or adding one makes
 * a new tarball) and kept under the server's node_modules/.cache, so every later database starts from the tarball
 * in a fraction of the time, and the app's own `migrate` at start finds nothing to do. Migrating from empty is
 * still run here (a broken migration fails every PGlite test), by the PostgreSQL variants, and by
 * test/startup.test.ts (`src/main.ts` on an empty data folder). Written to a temporary name and renamed, so processes racing on a
 * cold cache never read half a file.
 */
export function pgliteSnapshot(): Promise<string> {
  snapshot ??= (async () => {
    const { version } = JSON.parse(
      await readFile(join(serverDir, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
    ) as { version: string };
    const migrations = await readMigrations();
    const digest = createHash('sha256');
    for (const m of migrations) digest.update(`${m.version}\0${m.name}\0${m.sql}\0`);
    const file = join(
      serverDir,
      'node_modules/.cache/kestrel',
      `pglite-${version}-migrated-${digest.digest('hex').slice(0, 16)}.tar`,
    );
    const exists = await stat(file).then(
      (s) => s.size > 0,
      () => false,
    );
    if (!exists) {
      await mkdir(dirname(file), { recursive: true });
      const fresh = await PGlite.create();
      await migrate(pgliteDatabase(fresh), migrations);
      const dump = await fresh.dumpDataDir('none');
      await fresh.close();
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, Buffer.from(await dump.arrayBuffer()));
      await rename(tmp, file);
    }
    return file;
  })();
  return snapshot;
}

export interface TestDatabase {
  db: Database;
  /** Closes the database and, for PostgreSQL, drops the test's own schema */
  cleanup(): Promise<void>;
}

/**
 * PGlite in memory, already migrated (see `pgliteSnapshot`), or a fresh empty schema of a PostgreSQL (the app
 * migrates it at start), so that test files never see each other's rows
 */
export async function openTestDatabase(spec: TestDatabaseSpec = 'pglite'): Promise<TestDatabase> {
  if (spec === 'pglite') {
    const db = await openPgliteDatabase(undefined, new Blob([await readFile(await pgliteSnapshot())]));
    return { db, cleanup: () => db.close() };
  }
  const url = spec === 'postgres' ? await postgresUrl() : spec.url;
  if (!url) throw new Error('PostgreSQL is not reachable');
  const schema = `kestrel_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await openPostgresDatabase({ connectionString: url, schema, max: 4 });
  return {
    db,
    async cleanup() {
      await db.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}
