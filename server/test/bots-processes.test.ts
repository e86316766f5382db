import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bot, BotEvent } from '@kestrel/contracts';
import { SimServer } from '@kestrel/exchange-sim';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresUrl } from '../src/testing/test-database';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Ports of the server processes (this helper's range) */
const PORTS = [5210, 5211];
const GRID_ORDERS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const url = await postgresUrl();

/**
 * Live bots across real server processes (`tsx src/main.ts`, the production entry point) on one PostgreSQL and the
 * simulator on the wall clock: the process running a live bot is killed with SIGKILL while it places the bot's
 * grid (each order's answer held back 300 ms), and the bot must go on in another process (or the same one
 * restarted) within 30 s. The simulator's own record of the account judges: every grid level exactly once (no
 * duplicate), every level there (none lost)
 */
describe.skipIf(!url)('live bots across server processes', () => {
  let sim: SimServer;
  let simUrl: string;
  let dataDir: string;
  let keysDir: string;
  let dbName: string;
  let databaseUrl: string;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    dbName = `kestrel_proc_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(url as string);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
    dataDir = await mkdtemp(join(tmpdir(), 'kestrel-procs-'));
    keysDir = await mkdtemp(join(tmpdir(), 'kestrel-procs-keys-'));
  });
  afterEach(async () => {
    for (const c of children) c.kill('SIGKILL');
    children.clear();
    await sim?.close();
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(keysDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  async function startSim(): Promise<void> {
    sim = new SimServer({ symbols: ['BTCUSDT'], historyDays: 1, seed: 5 });
    simUrl = (await sim.listen(0)).url;
    sim.exchange.setPrice('BTCUSDT', { price: '50000' });
  }

  /** One server process on the shared database; resolves once it answers */
  async function server(port: number): Promise<{ child: ChildProcess; base: string }> {
    // `node --import tsx`, not the tsx CLI: the CLI runs the server in a child of its own, which a SIGKILL of the
    // CLI would leave running
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        KESTREL_DATA_DIR: dataDir,
        KESTREL_KEYS_DIR: keysDir,
        KESTREL_PORT: String(port),
        KESTREL_HOST: '127.0.0.1',
        KESTREL_LOG_LEVEL: 'warn',
        KESTREL_ACCOUNT_RECORDER: 'off',
        KESTREL_EXCHANGE_ENV: 'simulator',
        KESTREL_EXCHANGE_BASE_URL: simUrl,
        KESTREL_LIVE_SYMBOLS: 'BTCUSDT',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 600; i++) {
      if (child.exitCode !== null) throw new Error(`server on ${port} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${base}/api/v1/health`)).ok) return { child, base };
      } catch {
        // not listening yet
      }
      await sleep(250);
    }
    throw new Error(`server on ${port} did not start`);
  }

  async function call<T>(
    base: string,
    token: string,
    method: string,
    path: string,
    body?: object,
  ): Promise<T> {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await r.json()) as { data: T };
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
    return json.data;
  }

  /** A user with the simulator account's keys and a live grid bot started on `base` */
  async function liveBot(base: string) {
    const account = sim.exchange.createAccount({ balances: { USDT: '100000' } });
    const signup = await fetch(`${base}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `procs-${randomBytes(4).toString('hex')}@example.test`,
        password: 'correct horse battery staple',
      }),
    });
    const token = ((await signup.json()) as { access_token: string }).access_token;
    await call(base, token, 'POST', '/api/v1/credentials/binance', {
      api_key: account.apiKey,
      secret_key: account.secretKey,
    });
    const bot = await call<Bot>(base, token, 'POST', '/api/v1/agents/', {
      name: 'Grid across processes',
      strategy: 'grid',
      params: { lower: 45_000, upper: 55_000, gridCount: GRID_ORDERS, quantityPerGrid: 0.003 },
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 3,
      budget: 1000,
      mode: 'live',
    });
    // Every order's answer comes 300 ms after the exchange executed it: the kill lands mid-grid, with orders on
    // the exchange whose answer the killed process never read
    sim.faults.add({ kind: 'latency', method: 'POST', path: '/fapi/v1/order', phase: 'after', ms: 300 });
    const started = await call<Bot>(base, token, 'POST', `/api/v1/agents/${bot.id}/start`);
    expect(started.state).toBe('running');
    return { account, token, bot };
  }

  /** The simulator's record: the bot's orders (kb- client ids), and any client id seen more than once */
  function judge(account: ReturnType<SimServer['exchange']['createAccount']>) {
    const orders = [...account.orders.values()].filter((o) => o.clientOrderId.startsWith('kb-'));
    const perId = new Map<string, number>();
    for (const o of orders) perId.set(o.clientOrderId, (perId.get(o.clientOrderId) ?? 0) + 1);
    return {
      orders,
      duplicates: [...perId.entries()].filter(([, n]) => n > 1),
      prices: orders.map((o) => o.price.toNumber()).sort((a, b) => a - b),
    };
  }

  /** Waits for the process to be mid-grid (some orders on the exchange, not all) and kills it with SIGKILL */
  async function killMidGrid(
    child: ChildProcess,
    account: ReturnType<SimServer['exchange']['createAccount']>,
  ) {
    // The grid goes out at the first closed 1m candle after the start
    for (let i = 0; i < 1_000 && judge(account).orders.length < 2; i++) await sleep(100);
    const atKill = judge(account).orders.length;
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(atKill).toBeGreaterThanOrEqual(2);
    expect(atKill).toBeLessThan(GRID_ORDERS);
    return { atKill, killedAt: Date.now() };
  }

  async function untilResumed(base: string, token: string, botId: string): Promise<number> {
    for (let i = 0; i < 600; i++) {
      const events = await call<BotEvent[]>(
        base,
        token,
        'GET',
        `/api/v1/agents/${botId}/events?limit=50`,
      ).catch(() => [] as BotEvent[]);
      if (events.some((e) => e.kind === 'resumed')) return Date.now();
      await sleep(250);
    }
    throw new Error('the bot was never resumed');
  }

  async function untilGrid(account: ReturnType<SimServer['exchange']['createAccount']>): Promise<number> {
    for (let i = 0; i < 600 && judge(account).orders.length < GRID_ORDERS; i++) await sleep(100);
    // A little longer: a duplicate would show up now
    await sleep(2_000);
    return Date.now();
  }

  const GRID_PRICES = [45_000, 46_000, 47_000, 48_000, 49_000, 51_000, 52_000, 53_000, 54_000, 55_000];

  it('two processes on one PostgreSQL: the owner killed mid-grid, the other takes the bot over within 30 s, no order twice, none lost', async () => {
    await startSim();
    const a = await server(PORTS[0] as number);
    const b = await server(PORTS[1] as number);
    const { account, token, bot } = await liveBot(a.base);
    const { atKill, killedAt } = await killMidGrid(a.child, account);
    const resumedAt = await untilResumed(b.base, token, bot.id);
    const doneAt = await untilGrid(account);
    const j = judge(account);
    expect(j.duplicates).toEqual([]);
    expect(j.prices).toEqual(GRID_PRICES);
    expect(resumedAt - killedAt).toBeLessThan(30_000);
    const events = await call<BotEvent[]>(b.base, token, 'GET', `/api/v1/agents/${bot.id}/events?limit=100`);
    expect(events.find((e) => e.kind === 'resumed')?.message).toMatch(/^Resumed on this server/);
    const stopped = await call<Bot>(b.base, token, 'POST', `/api/v1/agents/${bot.id}/stop`);
    expect(stopped.state).toBe('stopped');
    expect([...account.orders.values()].filter((o) => o.status === 'NEW')).toEqual([]);
    console.info(
      `two processes: ${atKill} of ${GRID_ORDERS} grid orders on the exchange at the kill; taken over in ` +
        `${((resumedAt - killedAt) / 1000).toFixed(1)} s, grid complete ${((doneAt - killedAt - 2_000) / 1000).toFixed(1)} s after the kill; ` +
        `${j.orders.length} orders, 0 duplicates, 0 lost`,
    );
  }, 300_000);

  it('one process killed mid-grid and restarted: it resumes the bot, no order twice, none lost', async () => {
    await startSim();
    const a = await server(PORTS[0] as number);
    const { account, token, bot } = await liveBot(a.base);
    const { atKill, killedAt } = await killMidGrid(a.child, account);
    const again = await server(PORTS[0] as number);
    const resumedAt = await untilResumed(again.base, token, bot.id);
    await untilGrid(account);
    const j = judge(account);
    expect(j.duplicates).toEqual([]);
    expect(j.prices).toEqual(GRID_PRICES);
    expect(resumedAt - killedAt).toBeLessThan(30_000);
    await call<Bot>(again.base, token, 'POST', `/api/v1/agents/${bot.id}/stop`);
    console.info(
      `restart: ${atKill} of ${GRID_ORDERS} grid orders on the exchange at the kill; resumed ` +
        `${((resumedAt - killedAt) / 1000).toFixed(1)} s after it; ${j.orders.length} orders, 0 duplicates, 0 lost`,
    );
  }, 300_000);
});
