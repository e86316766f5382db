import type { AuthResponse } from '@kestrel/contracts';
import {
  type CreateAccountInput,
  ManualClock,
  SimServer,
  type SimServerOptions,
} from '@kestrel/exchange-sim';
import type { AppDeps } from '../app';
import { systemClock } from '../lib/clock';
import { bearer, buildTestApp, listenLoopback, signUp, type TestApp } from './test-app';
import { openTestDatabase, type TestDatabase, type TestDatabaseSpec } from './test-database';

/** The simulator's start time unless a test gives its own clock: noon UTC on a fixed day, far from any boundary */
export const SIM_START = Date.UTC(2026, 0, 15, 12);

/** An account's keys on the simulator, as Binance shows them once at creation */
export interface DemoKeys {
  apiKey: string;
  secretKey: string;
}

export interface TestServerOptions {
  /** Where the app stores its rows: in-memory PGlite (default), the local test PostgreSQL, or a PostgreSQL URL */
  database?: TestDatabaseSpec;
  /**
   * The simulator's options, over the defaults: a `ManualClock` at `SIM_START` (time moves only when the test
   * moves it and calls `tick()`), one day of history, BTCUSDT only
   */
  simulator?: SimServerOptions;
  /** Configuration variables over the test defaults; the exchange is the simulator */
  env?: NodeJS.ProcessEnv;
  /** Parts to replace (an exchange adapter, a keyring…); a function receives the simulator's REST URL */
  deps?: Partial<AppDeps> | ((simUrl: string) => Partial<AppDeps>);
  /**
   * `test` (default): the app runs on a `TestClock` the test moves. `wall`: the system clock, needed when a client
   * outside the app (the browser runtime) judges token expiry by the real time
   */
  clock?: 'test' | 'wall';
  /**
   * A second simulator standing in for mainnet (issue 23): `KESTREL_MAINNET=1` with its URL, so testnet (the first
   * simulator) and mainnet are two hosts with their own accounts and keys. `true` or its options over the defaults
   */
  mainnet?: true | SimServerOptions;
}

export interface TestServer extends TestApp {
  database: TestDatabase;
  sim: SimServer;
  /** The simulator's REST base URL (also the base of its streams and its `/_sim` admin API) */
  simUrl: string;
  /** Listens on a free loopback port, for clients that speak HTTP rather than `inject`; the app's base URL */
  listen(): Promise<string>;
  /** A fresh simulator account (1000 USDT, futures on, withdrawals off unless `input` says otherwise) */
  demoKeys(input?: CreateAccountInput): DemoKeys;
  /** Signs up a fresh user and stores a fresh demo account's keys for them, as connecting Binance does */
  connectedUser(): Promise<{ auth: AuthResponse; keys: DemoKeys }>;
  /** The mainnet stand-in when `mainnet` was asked for */
  mainnet?: {
    sim: SimServer;
    url: string;
    /** A fresh account on the mainnet stand-in (1000 USDT) */
    demoKeys(input?: CreateAccountInput): DemoKeys;
  };
  /** Stops the app, then drops the database, then stops the simulator; safe to call twice */
  close(): Promise<void>;
}

/**
 * The whole server a caller talks to, for integration tests of the server and of its clients: the Binance
 * simulator on a free loopback port, the real Fastify app on a test database with its exchange pointed at the
 * simulator, and ways to make demo keys and connected users. Everything is torn down by `close()`; a failure
 * while starting closes what had started.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const sim = new SimServer({
    clock: new ManualClock(SIM_START),
    historyDays: 1,
    symbols: ['BTCUSDT'],
    ...options.simulator,
  });
  const mainnetSim = options.mainnet
    ? new SimServer({
        clock: new ManualClock(SIM_START),
        historyDays: 1,
        symbols: ['BTCUSDT'],
        ...(options.mainnet === true ? {} : options.mainnet),
      })
    : undefined;
  const opened: { database?: TestDatabase; app?: TestApp } = {};
  let closing: Promise<void> | undefined;
  // In order (the app's exchange streams end before the simulator goes), and every part even when one fails to
  // stop: a test run must not be left with a port or a schema behind
  const close = () =>
    (closing ??= (async () => {
      try {
        await opened.app?.app.close();
      } finally {
        try {
          await opened.database?.cleanup();
        } finally {
          try {
            await sim.close();
          } finally {
            await mainnetSim?.close();
          }
        }
      }
    })());
  try {
    // The simulator listens while the database opens (PGlite's start is the slow part); both are awaited before
    // a failure of either is thrown, so `close` finds whatever did start
    const [listening, opening, mainnetListening] = await Promise.allSettled([
      sim.listen(0),
      openTestDatabase(options.database).then((d) => (opened.database = d)),
      mainnetSim?.listen(0),
    ]);
    if (listening.status === 'rejected') throw listening.reason;
    if (opening.status === 'rejected') throw opening.reason;
    if (mainnetListening.status === 'rejected') throw mainnetListening.reason;
    const mainnetUrl = mainnetListening.value?.url;
    const simUrl = listening.value.url;
    const database = opening.value;
    const deps = typeof options.deps === 'function' ? options.deps(simUrl) : (options.deps ?? {});
    const t = await buildTestApp(
      database.db,
      { ...(options.clock === 'wall' ? { clock: systemClock } : {}), ...deps },
      {
        KESTREL_EXCHANGE_ENV: 'simulator',
        KESTREL_EXCHANGE_BASE_URL: simUrl,
        ...(mainnetUrl ? { KESTREL_MAINNET: '1', KESTREL_MAINNET_BASE_URL: mainnetUrl } : {}),
        ...options.env,
      },
    );
    opened.app = t;

    const demoKeys = (input: CreateAccountInput = {}): DemoKeys => {
      const { apiKey, secretKey } = sim.exchange.createAccount({ balances: { USDT: '1000' }, ...input });
      return { apiKey, secretKey };
    };
    return {
      ...t,
      database,
      sim,
      simUrl,
      listen: () => listenLoopback(t.app),
      demoKeys,
      ...(mainnetSim && mainnetUrl
        ? {
            mainnet: {
              sim: mainnetSim,
              url: mainnetUrl,
              demoKeys: (input: CreateAccountInput = {}): DemoKeys => {
                const { apiKey, secretKey } = mainnetSim.exchange.createAccount({
                  balances: { USDT: '1000' },
                  ...input,
                });
                return { apiKey, secretKey };
              },
            },
          }
        : {}),
      async connectedUser() {
        const auth = await signUp(t);
        const keys = demoKeys();
        const stored = await t.request({
          method: 'POST',
          url: '/api/v1/credentials/binance',
          headers: bearer(auth.access_token),
          payload: { api_key: keys.apiKey, secret_key: keys.secretKey },
        });
        if (stored.statusCode !== 201) {
          throw new Error(`storing the demo keys failed: ${stored.statusCode} ${stored.body}`);
        }
        return { auth, keys };
      },
      close,
    };
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
}
