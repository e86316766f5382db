/**
 * Sign-in under load: throughput and latency of POST /api/v1/auth/signin (argon2id at the spec's minimum cost, a
 * session row and two JWTs per answer) against a listening server on 127.0.0.1, printed beside a Fastify
 * hello-world route measured in the same run. Figures are noisy on a shared machine: read the ratios.
 */

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type Database, openPgliteDatabase, openPostgresDatabase } from '@kestrel/server';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { benchApi, NO_EXCHANGE_ENV } from './lib/api';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** The local PostgreSQL of the dev/CI machines; its row is skipped when it does not answer */
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

async function load(options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** A PostgreSQL schema of its own, dropped after; undefined when the server does not answer */
async function openPostgresSchema(): Promise<{ db: Database; drop(): Promise<void> } | undefined> {
  let admin: Database;
  try {
    admin = await openPostgresDatabase({ connectionString: PG_URL, max: 1 });
  } catch {
    return undefined;
  }
  const schema = `kestrel_bench_${randomBytes(6).toString('hex')}`;
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const db = await openPostgresDatabase({ connectionString: PG_URL, schema, max: 10 });
  return {
    db,
    async drop() {
      await db.close();
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

/** Starts the API on `db`, signs up one user, and loads POST /api/v1/auth/signin with that user's credentials */
async function measureSignin(db: Database): Promise<Figures> {
  const app = await benchApi(db, NO_EXCHANGE_ENV);
  try {
    const apiUrl = await listen(app);
    const credentials = JSON.stringify({ email: 'bench@example.test', password: 'bench-password-123' });
    const signup = await fetch(`${apiUrl}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: credentials,
    });
    if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status}`);
    return await load({
      url: `${apiUrl}/api/v1/auth/signin`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: credentials,
    });
  } finally {
    await app.close();
  }
}

const row = (name: string, f: Figures) =>
  `${name.padEnd(26)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(5)} ms   ` +
  `p99 ${String(f.p99).padStart(5)} ms   errors ${f.errors}, non-2xx ${f.non2xx}`;

const ratio = (name: string, f: Figures, ref: Figures) =>
  `${name}: throughput ${(f.rps / ref.rps).toFixed(4)} x hello-world, p99 ${(f.p99 / Math.max(ref.p99, 1)).toFixed(1)} x`;

export default async function authSignin(): Promise<void> {
  const hello = Fastify({ logger: false });
  hello.get('/hello', async () => ({ hello: 'world' }));
  const helloUrl = await listen(hello);
  try {
    console.info(`${DURATION_S} s each, ${CONNECTIONS} connections, 127.0.0.1; argon2id m=19 MiB t=2 p=1`);
    const reference = await load({ url: `${helloUrl}/hello` });
    console.info(row('hello-world (reference)', reference));

    const pglite = await openPgliteDatabase();
    const onPglite = await measureSignin(pglite).finally(() => pglite.close());
    console.info(row('auth/signin on PGlite', onPglite));

    const postgres = await openPostgresSchema();
    const onPostgres = postgres ? await measureSignin(postgres.db).finally(() => postgres.drop()) : undefined;
    if (onPostgres) console.info(row('auth/signin on PostgreSQL', onPostgres));
    else console.info('auth/signin on PostgreSQL: skipped (not reachable; set BENCH_DATABASE_URL)');

    console.info(ratio('PGlite', onPglite, reference));
    if (onPostgres) console.info(ratio('PostgreSQL', onPostgres, reference));
  } finally {
    await hello.close();
  }
}
