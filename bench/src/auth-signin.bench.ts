/**
 * Sign-in under load: throughput and latency of POST /api/v1/auth/signin (argon2id at the spec's minimum cost, a
 * session row and two JWTs per answer) against a listening server on 127.0.0.1, printed beside a Fastify
 * hello-world route measured in the same run. Figures are noisy on a shared machine: read the ratios.
 */
import type { AddressInfo } from 'node:net';
import { buildApp, generateMasterKey, loadConfig, makeKeyring, openPgliteDatabase } from '@kestrel/server';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

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

export default async function authSignin(): Promise<void> {
  const hello = Fastify({ logger: false });
  hello.get('/hello', async () => ({ hello: 'world' }));
  const helloUrl = await listen(hello);

  const db = await openPgliteDatabase();
  const app = await buildApp(loadConfig({ KESTREL_LOG_LEVEL: 'silent' }), {
    database: db,
    keyring: makeKeyring([generateMasterKey()]),
  });
  const apiUrl = await listen(app);
  const credentials = JSON.stringify({ email: 'bench@example.test', password: 'bench-password-123' });
  const signup = await fetch(`${apiUrl}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: credentials,
  });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status}`);

  try {
    const reference = await load({ url: `${helloUrl}/hello` });
    const signin = await load({
      url: `${apiUrl}/api/v1/auth/signin`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: credentials,
    });
    const row = (name: string, f: Figures) =>
      `${name.padEnd(22)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms   errors ${f.errors}, non-2xx ${f.non2xx}`;
    console.info(`${DURATION_S} s each, ${CONNECTIONS} connections, 127.0.0.1`);
    console.info(row('hello-world (ref)', reference));
    console.info(row('POST auth/signin', signin));
    console.info(
      `sign-in throughput = ${(signin.rps / reference.rps).toFixed(4)} x hello-world; ` +
        `p99 = ${(signin.p99 / Math.max(reference.p99, 1)).toFixed(1)} x hello-world p99`,
    );
  } finally {
    await app.close();
    await db.close();
    await hello.close();
  }
}
