import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_DATA_DIR, E2E_SIM_PORT } from './ports';

/** The simulator's admin API of the e2e copy */
const SIM_ADMIN = `http://127.0.0.1:${E2E_SIM_PORT}/_sim`;

/**
 * What every admin call sends: JSON, and the admin token `scripts/start.mjs` gave the simulator
 * (KESTREL_SIM_ADMIN_TOKEN, else the one it keeps in the data folder). Read at the call: the file appears when the
 * web server starts, after this module is loaded
 */
export function adminHeaders(): Record<string, string> {
  const token =
    process.env.KESTREL_SIM_ADMIN_TOKEN || readFileSync(join(E2E_DATA_DIR, 'sim-admin-token'), 'utf8').trim();
  return { 'content-type': 'application/json', 'x-sim-admin-token': token };
}

/**
 * What `POST /_sim/prices/{symbol}` takes (packages/exchange-sim CONTEXT.md): a jump now, a path of points, or a
 * straight move to a target; prices are decimal strings on the symbol's tick
 */
export type SimPriceCommand =
  | { price: string }
  | { path: ReadonlyArray<{ price: string; afterMs: number }> }
  | { target: string; overMs: number };

/** The simulator's answer: who moves the price now, and the last and mark prices */
export interface SimPrice {
  symbol: string;
  mode: 'walk' | 'held' | 'path';
  lastPrice: string;
  markPrice: string;
  indexPrice: string;
  target?: string;
  until?: number;
  time: number;
}

async function call(method: 'POST' | 'DELETE', symbol: string, body?: SimPriceCommand): Promise<SimPrice> {
  const res = await fetch(`${SIM_ADMIN}/prices/${symbol}`, {
    method,
    headers: adminHeaders(),
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok)
    throw new Error(`The simulator refused ${method} prices/${symbol}: ${res.status} ${await res.text()}`);
  return (await res.json()) as SimPrice;
}

/**
 * Moves a symbol's price on the e2e simulator (resting orders fill, stops trigger, positions liquidate at once);
 * the price then holds until {@link releaseSimPrice}. Release it at the end of the test: the simulator is shared
 */
export function setSimPrice(symbol: string, command: SimPriceCommand): Promise<SimPrice> {
  return call('POST', symbol, command);
}

/** Hands a symbol back to the simulator's random walk, continuing from the price it was set to */
export function releaseSimPrice(symbol: string): Promise<SimPrice> {
  return call('DELETE', symbol);
}

/** An exchange key pair, as the simulator's admin API creates it */
export interface SimKeys {
  apiKey: string;
  secretKey: string;
}

/** The simulator's demo account that scripts/start.mjs created for this run (key and secret in its data folder) */
export function demoKeys(): SimKeys {
  return JSON.parse(readFileSync(join(E2E_DATA_DIR, 'sim-demo-account.json'), 'utf8')) as SimKeys;
}

/**
 * A simulator account of the test's own (`POST /_sim/accounts`, e.g. `{ balances: { USDT: '1000' } }` or a key whose
 * permissions differ): the demo account is shared by every spec of the run, so a test that trades or reads figures
 * opens its own
 */
export async function createSimAccount(body: object): Promise<SimKeys> {
  const res = await fetch(`${SIM_ADMIN}/accounts`, {
    method: 'POST',
    headers: adminHeaders(),
    body: JSON.stringify(body),
  });
  if (res.status !== 201) {
    throw new Error(`The simulator refused a new account: ${res.status} ${await res.text()}`);
  }
  return (await res.json()) as SimKeys;
}

/** The e2e simulator's fapi base URL (the mainnet stand-in is on the next port) */
export const SIM_URL = `http://127.0.0.1:${E2E_SIM_PORT}`;

/** The symbol's last price on the e2e simulator, as its public ticker reports it */
export async function simLastPrice(symbol: string): Promise<number> {
  const res = await fetch(`${SIM_URL}/fapi/v1/ticker/price?symbol=${symbol}`);
  return Number(((await res.json()) as { price: string }).price);
}

/**
 * A simulator's own record, asked with the account's keys as Binance is asked (a signed fapi GET): the truth a test
 * checks the pages against
 */
export async function simSignedGet<T>(
  keys: SimKeys,
  path: string,
  params: Record<string, string> = {},
  base = SIM_URL,
): Promise<T> {
  const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
  const signature = createHmac('sha256', keys.secretKey).update(query).digest('hex');
  const res = await fetch(`${base}${path}?${query}&signature=${signature}`, {
    headers: { 'X-MBX-APIKEY': keys.apiKey },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * An order sent to the simulator as Binance takes one (a signed fapi POST), the way another app on the same account
 * would: it sets up what a page must then find on the exchange
 */
export async function simSignedPost<T>(
  keys: SimKeys,
  path: string,
  params: Record<string, string>,
  base = SIM_URL,
): Promise<T> {
  const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
  const signature = createHmac('sha256', keys.secretKey).update(query).digest('hex');
  const res = await fetch(`${base}${path}?${query}&signature=${signature}`, {
    method: 'POST',
    headers: { 'X-MBX-APIKEY': keys.apiKey },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The simulator's income record of the account (`GET /fapi/v1/income`, the last 1,000 entries) */
export function simIncome(keys: SimKeys): Promise<{ incomeType: string; income: string; symbol: string }[]> {
  return simSignedGet(keys, '/fapi/v1/income', { limit: '1000' });
}

/**
 * What `POST /_sim/faults` takes (packages/exchange-sim CONTEXT.md): `after` runs the request, then breaks its
 * reply (the "placed, but the client never heard" case); `remaining` limits how many requests it hits
 */
export interface SimFault {
  kind: 'latency' | 'error' | 'timeout' | 'drop';
  method?: string;
  path?: string;
  phase?: 'before' | 'after';
  status?: number;
  ms?: number;
  remaining?: number;
  /** Only this account's requests: the simulator is shared by both workers' tests */
  apiKey?: string;
}

/**
 * Injects a fault on the e2e simulator and answers its id. The simulator is shared by the run's workers: keep the
 * fault narrow (`apiKey` of the test's own account, `remaining`) and remove it with {@link removeSimFault} in `finally`
 */
export async function addSimFault(fault: SimFault): Promise<number> {
  const res = await fetch(`${SIM_ADMIN}/faults`, {
    method: 'POST',
    headers: adminHeaders(),
    body: JSON.stringify(fault),
  });
  if (res.status !== 201 && res.status !== 200) {
    throw new Error(`The simulator refused a fault: ${res.status} ${await res.text()}`);
  }
  return ((await res.json()) as { id: number }).id;
}

export async function removeSimFault(id: number): Promise<void> {
  await fetch(`${SIM_ADMIN}/faults/${id}`, { method: 'DELETE', headers: adminHeaders() });
}
