import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = join(dirname(fileURLToPath(import.meta.url)), 'cli.ts');
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

function run(args: string[]) {
  // Run from the package so `tsx` resolves from its own dependencies
  child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: dirname(dirname(CLI)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const proc = child;
  return {
    output: () => out,
    line: (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const check = () => {
          const m = out.match(pattern);
          if (m) resolve(m);
        };
        proc.stdout?.on('data', check);
        proc.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
        check();
      }),
    exit: new Promise<{ code: number | null; err: string }>((resolve) =>
      proc.once('exit', (code) => resolve({ code, err })),
    ),
  };
}

describe('CLI', () => {
  it('prints where it listens and serves the chosen symbols', async () => {
    const cli = run([
      '--port',
      '0',
      '--seed',
      '5',
      '--symbols',
      'ETHUSDT,XRPUSDT',
      '--history-days',
      '1',
      '--demo-account',
    ]);
    const [, url] = await cli.line(/REST (http:\/\/[^\s]+)/);
    const info = (await (await fetch(`${url}/fapi/v1/exchangeInfo`)).json()) as {
      symbols: Array<{ symbol: string }>;
    };
    expect(info.symbols.map((s) => s.symbol)).toEqual(['ETHUSDT', 'XRPUSDT']);
    expect((await cli.line(/demo account: apiKey=(\w{64})/))[1]).toHaveLength(64);
  }, 20_000);

  it('always guards /_sim with a token it prints (a random one unless given)', async () => {
    const cli = run(['--port', '0', '--symbols', 'BTCUSDT', '--history-days', '0']);
    const [, url] = await cli.line(/REST (http:\/\/[^\s]+)/);
    const [, token] = await cli.line(/admin token ([0-9a-f]{32}) /);
    const post = (headers: Record<string, string>) =>
      fetch(`${url}/_sim/accounts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ balances: { USDT: '5' } }),
      });
    expect((await post({ 'content-type': 'application/json' })).status).toBe(401);
    expect(
      (await post({ 'content-type': 'application/json', 'x-sim-admin-token': `${token}x` })).status,
    ).toBe(401);
    expect((await post({ 'content-type': 'text/plain', 'x-sim-admin-token': token ?? '' })).status).toBe(415);
    expect(
      (await post({ 'content-type': 'application/json', 'x-sim-admin-token': token ?? '' })).status,
    ).toBe(201);
  }, 20_000);

  it('replays a klines CSV for a symbol, starting --history-days ago', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    const csv = join(dir, 'btc.csv');
    const rows = Array.from(
      { length: 180 },
      (_, i) => `${1700000000000 - (1700000000000 % 60000) + i * 60000},50000,50010,49990,50000,3`,
    );
    writeFileSync(csv, `open_time,open,high,low,close,volume\n${rows.join('\n')}\n`);
    try {
      const cli = run([
        '--port',
        '0',
        '--symbols',
        'BTCUSDT',
        '--history-days',
        '0',
        '--replay',
        `BTCUSDT=${csv}`,
      ]);
      const [, url] = await cli.line(/REST (http:\/\/[^\s]+)/);
      const ticker = (await (await fetch(`${url}/fapi/v1/ticker/price?symbol=BTCUSDT`)).json()) as {
        price: string;
      };
      expect(Number(ticker.price)).toBeGreaterThanOrEqual(49990);
      expect(Number(ticker.price)).toBeLessThanOrEqual(50010);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);

  it('fails with the list of known symbols for an unknown one', async () => {
    const cli = run(['--symbols', 'NOPEUSDT']);
    const { code, err } = await cli.exit;
    expect(code).toBe(2);
    expect(err).toMatch(/Unknown symbol "NOPEUSDT".*BTCUSDT/);
  }, 20_000);
});
