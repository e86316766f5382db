import { ManualClock } from '@kestrel/exchange-sim';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AppDeps } from '../src/app';
import { type Clock, clockReading } from '../src/lib/clock';
import type { TestServerOptions } from '../src/testing';
import { buildTestApp, type DemoKeys, SIM_START, type TestApp, type TestServer } from './helper';
import { useTestServer } from './suite-fixtures';

/** Lease rounds only when a test calls `tick` (the timer's period is longer than any test) */
export const MANUAL_LEASES = 3_600_000;

export interface SimBotsOptions {
  /** The simulator's history (1 day) and symbols (BTCUSDT); the mainnet stand-in, when asked for, gets the same */
  historyDays?: number;
  symbols?: string[];
  mainnet?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Parts over the simulated clock and the manual lease rounds */
  deps?: Partial<AppDeps>;
  /** BTCUSDT's price on the simulators once they run */
  price?: string;
  /** How long `eventually` waits: `tries` looks `everyMs` apart (250 × 20 ms) */
  wait?: { tries: number; everyMs: number };
  /** The start's own timeout (the hook timeout of the suite by default) */
  startTimeoutMs?: number;
}

/** A bot suite's server on a hand-moved simulator clock, and the waits its tests share */
export interface SimBots {
  /** The simulator and the app (filled in by the suite's `beforeAll`) */
  t: TestServer;
  /** The simulator's time: it moves only when a test moves it */
  simClock: ManualClock;
  /** The app reads the simulator's time, so bars close for both at once */
  clock: Clock;
  /** Moves simulated time a second at a time (streams push only on simulated seconds) until `ms` have passed */
  advance(ms: number): Promise<void>;
  /** Waits (wall time, `wait` of the options) until `until` holds, then says it does */
  eventually(until: () => Promise<boolean> | boolean, tries?: number): Promise<void>;
  /** Moves time to just after the next minute boundary and waits until `until` holds (the bar was handled) */
  nextBar(until: () => Promise<boolean> | boolean): Promise<void>;
  /** A demo account of the simulator, by its keys (its orders, algo orders and positions are the judge) */
  account(keys: DemoKeys): NonNullable<ReturnType<TestServer['sim']['exchange']['accountByKey']>>;
  /**
   * Another instance of the app on the suite's database, keyring and simulator (a restart, a second server; `deps`
   * over the clock and the manual lease rounds), closed at the suite's end
   */
  anotherApp(deps?: Partial<AppDeps>): Promise<TestApp>;
}

/**
 * `useTestServer` for the bot and agent suites: the simulator on a `ManualClock` at `SIM_START`, the app on the
 * same time with lease rounds only when a test calls `tick`, and the moves of time the tests make
 */
export function useSimBots(options: SimBotsOptions = {}): SimBots {
  const simClock = new ManualClock(SIM_START);
  const clock = clockReading(() => new Date(simClock.now()));
  const market = {
    clock: simClock,
    historyDays: options.historyDays ?? 1,
    symbols: options.symbols ?? ['BTCUSDT'],
  };
  const server: TestServerOptions = {
    simulator: market,
    ...(options.mainnet ? { mainnet: market } : {}),
    ...(options.env ? { env: options.env } : {}),
    deps: { clock, botLeaseRenewMs: MANUAL_LEASES, ...options.deps },
  };
  const t = useTestServer(server, options.startTimeoutMs);
  const others: TestApp[] = [];
  afterAll(async () => {
    for (const a of others) await a.app.close().catch(() => {});
  });
  const price = options.price;
  if (price !== undefined) {
    beforeAll(() => {
      t.sim.exchange.setPrice('BTCUSDT', { price });
      t.mainnet?.sim.exchange.setPrice('BTCUSDT', { price });
    });
  }
  const { tries: defaultTries, everyMs } = options.wait ?? { tries: 250, everyMs: 20 };

  async function advance(ms: number): Promise<void> {
    for (let done = 0; done < ms; done += 1000) {
      simClock.advance(1000);
      t.sim.tick();
      t.mainnet?.sim.tick();
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  async function eventually(until: () => Promise<boolean> | boolean, tries = defaultTries): Promise<void> {
    for (let i = 0; i < tries && !(await until()); i++) await new Promise((r) => setTimeout(r, everyMs));
    expect(await until()).toBe(true);
  }
  async function nextBar(until: () => Promise<boolean> | boolean): Promise<void> {
    await advance(60_000 - (simClock.now() % 60_000) + 1000);
    await eventually(until);
  }
  const account = (keys: DemoKeys) => {
    const a = t.sim.exchange.accountByKey(keys.apiKey);
    if (!a) throw new Error('the demo account is gone');
    return a;
  };
  async function anotherApp(deps: Partial<AppDeps> = {}): Promise<TestApp> {
    const app = await buildTestApp(
      t.database.db,
      { clock, keyring: t.keyring, botLeaseRenewMs: MANUAL_LEASES, ...deps },
      { KESTREL_EXCHANGE_ENV: 'simulator', KESTREL_EXCHANGE_BASE_URL: t.simUrl },
    );
    others.push(app);
    return app;
  }
  return { t, simClock, clock, advance, eventually, nextBar, account, anotherApp };
}

/** A user of the suite with a demo account's keys stored, as connecting Binance does (filled in by `beforeAll`) */
export interface ConnectedUser {
  token: string;
  keys: DemoKeys;
}

/** Signs up a connected user in the suite's `beforeAll` (after the server's start): read it in tests */
export function useConnectedUser(t: TestServer): ConnectedUser {
  const user = {} as ConnectedUser;
  beforeAll(async () => {
    const { auth, keys } = await t.connectedUser();
    Object.assign(user, { token: auth.access_token, keys });
  });
  return user;
}

/**
 * The simulator's own record of a demo account on BTCUSDT: every order it ever accepted, the open ones, and its
 * position (the judge of what a live bot sent)
 */
type SimAccount = ReturnType<SimBots['account']>;
type SimOrder = SimAccount['orders'] extends Map<unknown, infer O> ? O : never;

export function simRecord(account: SimAccount): { all: SimOrder[]; open: SimOrder[]; position: number } {
  const all = [...account.orders.values()];
  return {
    all,
    open: all.filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED'),
    position: [...account.positions.values()].find((p) => p.symbol === 'BTCUSDT')?.amt.toNumber() ?? 0,
  };
}

/** Ten grid levels from 49,000 to 51,000, 0.003 BTC each: around the price the bot suites set (50,000) */
export const GRID_AROUND_50K = { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.003 };

/** A live grid bot's settings: `params` (the grid around 50,000) on BTCUSDT 1m at 5×, 500 USDT of budget */
export const liveGridBot = (name: string, params: object = GRID_AROUND_50K) => ({
  name,
  strategy: 'grid',
  params,
  symbol: 'BTCUSDT',
  interval: '1m',
  leverage: 5,
  budget: 500,
  mode: 'live',
});

/** A paper grid bot's settings: the neutral grid around 50,000 on BTCUSDT 1m at 5×, 1000 USDT of budget */
export const paperGridBot = (name: string) => ({
  name,
  strategy: 'grid',
  params: { ...GRID_AROUND_50K, direction: 'neutral' },
  symbol: 'BTCUSDT',
  interval: '1m',
  leverage: 5,
  budget: 1000,
  mode: 'paper',
});

/** An agent's gates wide open and no costs: the model's first lean becomes an entry (for tests of the path) */
export const WIDE_OPEN_GATES = {
  entryThreshold: 0.34,
  minPredictionZ: 0,
  maxDissimilarity: 100,
  feeRate: 0,
  slippage: 0,
  deadZone: 0,
};
