import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import type { AuthResponse } from '@kestrel/contracts';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type AppDeps, buildApp } from '../app';
import { loadConfig } from '../config';
import { type Clock, systemClock, type Timer, type TimerOptions } from '../lib/clock';
import { generateMasterKey, type Keyring, makeKeyring } from '../lib/crypto/master-key';
import type { Database } from '../lib/database/database';
import { pluginOrderFrom } from '../lib/plugin-order';
import type { DpopKey } from './dpop';

/**
 * A clock whose time the test moves by hand, while its timers run on Node's (the app's rounds keep going). For
 * timers under the test's control too, pass a `ManualClock` in `deps.clock`
 */
export class TestClock implements Clock {
  constructor(private ms = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  after(ms: number, fn: () => void, options?: TimerOptions): Timer {
    return systemClock.after(ms, fn, options);
  }
  every(ms: number, fn: () => void, options?: TimerOptions): Timer {
    return systemClock.every(ms, fn, options);
  }
}

export interface TestApp {
  app: FastifyInstance;
  /** The app's clock, unless the test gave its own in `deps.clock` */
  clock: TestClock;
  keyring: Keyring;
  /** Every log line the app wrote, raw */
  logs: string[];
  /** Every response seen through `request` (status, headers and body), for the secret scan */
  responses: LightMyRequestResponse[];
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
}

const tokenKeyrings = new WeakMap<Keyring, Keyring>();
/**
 * Test apps given one vault keyring share one token keyring too, as instances of a deployment share both keys: a
 * token one instance signed is accepted by the other. The two are still different keys
 */
function tokenKeysFor(vault: Keyring): Keyring {
  let tokens = tokenKeyrings.get(vault);
  if (!tokens) {
    tokens = makeKeyring([generateMasterKey()]);
    tokenKeyrings.set(vault, tokens);
  }
  return tokens;
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
  const keyring = deps.keyring ?? makeKeyring([generateMasterKey()]);
  const tokenKeyring = deps.tokenKeyring ?? tokenKeysFor(keyring);
  const app = await buildApp(
    loadConfig({
      KESTREL_LOG_LEVEL: 'info',
      KESTREL_CORS_ORIGINS: 'http://shell.test',
      KESTREL_EXCHANGE_BASE_URL: `http://127.0.0.1:${await closedLoopbackPort()}`,
      // Tests drive the recorder with `app.accountRecorder.tick()`; a test wanting its timer passes `on`
      KESTREL_ACCOUNT_RECORDER: 'off',
      // Test files sign up many users from one address; the abuse tests set their own limit
      KESTREL_SIGNUPS_PER_IP_HOUR: '100000',
      ...env,
    }),
    {
      database: db,
      clock,
      keyring,
      tokenKeyring,
      logStream: { write: (line) => void logs.push(line) },
      // KESTREL_TEST_PLUGIN_ORDER=reversed (or seed:<n>) runs a suite with the domain plugins in another order
      pluginOrder: pluginOrderFrom(process.env.KESTREL_TEST_PLUGIN_ORDER),
      ...deps,
    },
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

/** Listens on an OS-chosen loopback port and returns the HTTP base URL (`http://127.0.0.1:port`) */
export async function listenLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

let counter = 0;
/** An email no other test of the run uses */
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}-${counter}-${randomBytes(4).toString('hex')}@example.test`;
}

export const PASSWORD = 'correct horse battery staple';

/**
 * Signs up a fresh user and returns the auth answer. With `key` the sign-up carries its DPoP proof, so the refresh
 * token is bound to it and can be refreshed with its proofs (without one it cannot be refreshed at all)
 */
export async function signUp(
  t: TestApp,
  email = uniqueEmail(),
  password = PASSWORD,
  key?: DpopKey,
): Promise<AuthResponse> {
  const url = '/api/v1/auth/signup';
  const headers = key ? { dpop: await key.proof('POST', `http://localhost${url}`) } : {};
  const res = await t.request({ method: 'POST', url, payload: { email, password }, headers });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
