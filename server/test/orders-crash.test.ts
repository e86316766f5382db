import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SimServer } from '@kestrel/exchange-sim';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const BURST = 24;

/** Runs the burst child; `onLine` sees each stdout line and may kill it */
function runChild(env: NodeJS.ProcessEnv, onLine: (line: string, child: ChildProcess) => void) {
  const child = spawn(join(serverDir, 'node_modules/.bin/tsx'), ['test/fixtures/order-burst-child.ts'], {
    cwd: serverDir,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on('line', (line) => onLine(line, child));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
}

describe('order manager under a crash', () => {
  let dir: string | undefined;
  let sim: SimServer | undefined;
  afterAll(async () => {
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a server killed with SIGKILL mid-burst, restarted on the same database: no duplicate, no lost order', async () => {
    // The simulator on the wall clock; every order's answer comes 150 ms after it is executed, so the kill lands
    // while orders are on the exchange but not yet confirmed
    sim = new SimServer({ symbols: ['BTCUSDT'], historyDays: 1, seed: 3 });
    const { url } = await sim.listen(0);
    sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    sim.faults.add({ kind: 'latency', method: 'POST', path: '/fapi/v1/order', phase: 'after', ms: 150 });
    const account = sim.exchange.createAccount({ balances: { USDT: '100000' } });
    dir = await mkdtemp(join(tmpdir(), 'kestrel-crash-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      KESTREL_DATA_DIR: dir,
      KESTREL_LOG_LEVEL: 'warn',
      KESTREL_EXCHANGE_ENV: 'simulator',
      KESTREL_EXCHANGE_BASE_URL: url,
      SIM_API_KEY: account.apiKey,
      SIM_SECRET_KEY: account.secretKey,
      BURST: String(BURST),
    };
    delete env.DATABASE_URL;
    delete env.KESTREL_MASTER_KEY;

    let confirmed = 0;
    const first = await runChild(env, (line, child) => {
      if (line.startsWith('placed ') && ++confirmed === 6) child.kill('SIGKILL');
    });
    expect(first.signal).toBe('SIGKILL');
    const onExchangeAtKill = account.orders.size;

    let done: Array<{ clientOrderId: string; state: string }> | undefined;
    const second = await runChild(env, (line) => {
      if (line.startsWith('done ')) done = JSON.parse(line.slice(5));
    });
    expect(second.code).toBe(0);

    // The simulator's own record: each intent's client order id exactly once, nothing else
    const orders = [...account.orders.values()];
    const perId = new Map<string, number>();
    for (const o of orders) perId.set(o.clientOrderId, (perId.get(o.clientOrderId) ?? 0) + 1);
    const duplicates = [...perId.entries()].filter(([, count]) => count > 1);
    expect(duplicates).toEqual([]);
    expect(done).toHaveLength(BURST);
    expect(done?.every((i) => i.state === 'placed')).toBe(true);
    expect([...perId.keys()].sort()).toEqual(done?.map((i) => i.clientOrderId).sort());
    expect(orders).toHaveLength(BURST);
    // The kill did land mid-burst: some orders were on the exchange, not all
    expect(onExchangeAtKill).toBeGreaterThanOrEqual(6);
    expect(onExchangeAtKill).toBeLessThan(BURST);
    console.info(
      `crash test: ${onExchangeAtKill} of ${BURST} orders on the exchange at the kill (6 confirmed to the bot), ` +
        `${orders.length} after the restart, 0 duplicates`,
    );
  }, 180_000);
});
