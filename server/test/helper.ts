import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AuthResponse } from '@kestrel/contracts';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type AppDeps, buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Clock } from '../src/lib/clock';
import { generateMasterKey, type Keyring, makeKeyring } from '../src/lib/crypto/master-key';
import type { Database } from '../src/lib/database/database';
import { openPgliteDatabase } from '../src/lib/database/pglite-database';
import { openPostgresDatabase } from '../src/lib/database/postgres-database';

export type Driver = 'pglite' | 'postgres';

/** The local PostgreSQL of the dev and CI machines (trust auth); override with KESTREL_TEST_DATABASE_URL */
const PG_CANDIDATES = process.env.KESTREL_TEST_DATABASE_URL
  ? [process.env.KESTREL_TEST_DATABASE_URL]
  : ['postgres://postgres@127.0.0.1:5432/test', 'postgres://root@127.0.0.1:5432/test'];

let reachable: Promise<string | undefined> | undefined;

/** The first candidate URL that accepts a connection within 2 s, or undefined (the PostgreSQL variants skip) */
export function postgresUrl(): Promise<string | undefined> {
  reachable ??= (async () => {
    for (const url of PG_CANDIDATES) {
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

export interface TestDatabase {
  db: Database;
  /** Closes the database and, for PostgreSQL, drops the file's own schema */
  cleanup(): Promise<void>;
}

/** PGlite in memory, or a fresh schema of the local PostgreSQL so that test files never see each other's rows */
export async function openTestDatabase(driver: Driver): Promise<TestDatabase> {
  if (driver === 'pglite') {
    const db = await openPgliteDatabase(undefined, new Blob([await readFile(inject('pgliteDump'))]));
    return { db, cleanup: () => db.close() };
  }
  const url = await postgresUrl();
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

/** A clock the test moves by hand */
export class TestClock implements Clock {
  constructor(private ms = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  keyring: Keyring;
  /** Every log line the app wrote, raw */
  logs: string[];
  /** Every response seen through `request` (status, headers and body), for the secret scan */
  responses: LightMyRequestResponse[];
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
}

let closedPort: Promise<number> | undefined;
/** A loopback port that was just free and is closed again: an exchange that refuses connections */
export function closedLoopbackPort(): Promise<number> {
  closedPort ??= new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  return closedPort;
}

/**
 * The real app on a test database, with a hand-moved clock and captured logs. Unless `env` says otherwise the
 * exchange is a closed loopback port (unreachable), never whatever may run on the default simulator port
 */
export async function buildTestApp(
  db: Database,
  deps: Partial<AppDeps> = {},
  env: NodeJS.ProcessEnv = {},
): Promise<TestApp> {
  const logs: string[] = [];
  const clock = new TestClock();
  const keyring = makeKeyring([generateMasterKey()]);
  const app = await buildApp(
    loadConfig({
      KESTREL_LOG_LEVEL: 'info',
      KESTREL_CORS_ORIGINS: 'http://shell.test',
      KESTREL_EXCHANGE_BASE_URL: `http://127.0.0.1:${await closedLoopbackPort()}`,
      ...env,
    }),
    { database: db, clock, keyring, logStream: { write: (line) => void logs.push(line) }, ...deps },
  );
  await app.ready();
  const responses: LightMyRequestResponse[] = [];
  return {
    app,
    clock,
    keyring,
    logs,
    responses,
    async request(options) {
      const res = await app.inject(options);
      responses.push(res);
      return res;
    },
  };
}

let counter = 0;
/** An email no other test of the run uses */
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}-${counter}-${randomBytes(4).toString('hex')}@example.test`;
}

export const PASSWORD = 'correct horse battery staple';

/** Signs up a fresh user and returns the auth answer */
export async function signUp(t: TestApp, email = uniqueEmail(), password = PASSWORD): Promise<AuthResponse> {
  const res = await t.request({ method: 'POST', url: '/api/v1/auth/signup', payload: { email, password } });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
