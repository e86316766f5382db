#!/usr/bin/env -S npx tsx
/**
 * Runs the simulator on the wall clock: `tsx src/cli.ts --port 4567 --seed 42 --symbols BTCUSDT,ETHUSDT`.
 * Prints the REST and WebSocket base URLs, and optionally creates a demo account (`--demo-account`).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_SYMBOLS, KNOWN_SYMBOLS, resolveSymbols } from './common/symbols';
import { SimServer } from './http/server';
import { GeneratedFeed, type PriceSource } from './matching/price-feed';
import { ReplayFeed } from './matching/replay-feed';

const USAGE = `Usage: exchange-sim [--port N] [--host H] [--seed N] [--symbols A,B] [--history-days N] [--weight-limit N] [--demo-account]
  --port          TCP port (default 4567; 0 picks a free one)
  --host          interface to bind (default 127.0.0.1)
  --seed          price generator seed (default 1)
  --symbols       comma-separated; known: ${KNOWN_SYMBOLS.map((s) => s.symbol).join(', ')}
  --history-days  days of 1m history before now (default 365)
  --weight-limit  REQUEST_WEIGHT per IP per minute before 429 (default 2400, as Binance)
  --replay        SYMBOL=file.csv: prices of SYMBOL from a 1m klines CSV (Binance's column order), moved in time
                  so the first bar opens --history-days ago; repeatable
  --admin-token   the token /_sim requires in header x-sim-admin-token (default: KESTREL_SIM_ADMIN_TOKEN, else
                  a random one, printed at start)
  --demo-account  create an account with 10000 USDT and print its key and secret`;

function fail(message: string): never {
  console.error(`exchange-sim: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    fail(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

let values: Record<string, string | boolean | string[] | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      symbols: { type: 'string' },
      'history-days': { type: 'string' },
      'weight-limit': { type: 'string' },
      'admin-token': { type: 'string' },
      replay: { type: 'string', multiple: true },
      'demo-account': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  }));
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
if (values.help) {
  console.info(USAGE);
  process.exit(0);
}

const port = integer('port', values.port as string | undefined, 4567, 0, 65535);
const seed = integer('seed', values.seed as string | undefined, 1, 0, 2 ** 31 - 1);
const historyDays = integer('history-days', values['history-days'] as string | undefined, 365, 0, 3650);
const weightLimit = integer(
  'weight-limit',
  values['weight-limit'] as string | undefined,
  2400,
  1,
  10_000_000,
);
const symbols = ((values.symbols as string | undefined) ?? DEFAULT_SYMBOLS.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

const replays = new Map<string, string>();
for (const entry of (values.replay as string[] | undefined) ?? []) {
  const [symbol, path] = entry.split('=');
  if (!symbol || !path) fail(`--replay takes SYMBOL=file.csv, got "${entry}"`);
  replays.set(symbol.toUpperCase(), path);
}

let sim: SimServer;
try {
  const start = Date.now() - historyDays * 86_400_000;
  const specs = resolveSymbols(symbols);
  for (const symbol of replays.keys()) {
    if (!specs.some((s) => s.symbol === symbol)) fail(`--replay names ${symbol}, which is not in --symbols`);
  }
  const feeds: PriceSource[] = specs.map((spec) => {
    const path = replays.get(spec.symbol);
    return path
      ? ReplayFeed.fromCsv(spec, readFileSync(path, 'utf8'), start)
      : new GeneratedFeed(spec, seed, start);
  });
  // The admin API can mint accounts and move prices: never open to whoever can reach the port (a web page the
  // developer visits included), so there is always a token
  const adminToken =
    (values['admin-token'] as string | undefined) ||
    process.env.KESTREL_SIM_ADMIN_TOKEN ||
    randomBytes(16).toString('hex');
  sim = new SimServer({
    seed,
    symbols,
    historyDays,
    feeds,
    adminToken,
    rateLimits: { weightPerMinute: weightLimit },
  });
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
const where = await sim.listen(port, (values.host as string | undefined) ?? '127.0.0.1');
console.info(`exchange-sim listening: REST ${where.url}  WebSocket ${where.wsUrl}  admin ${where.url}/_sim`);
console.info(`symbols ${symbols.join(', ')}; seed ${seed}; ${historyDays} days of 1m history`);
console.info(`admin token ${sim.adminToken} (header x-sim-admin-token; JSON bodies only)`);
if (values['demo-account']) {
  const account = sim.exchange.createAccount({ balances: { USDT: '10000' } });
  console.info(`demo account: apiKey=${account.apiKey} secretKey=${account.secretKey}`);
}

const stop = () => {
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
