import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from '@playwright/test';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Ports of the product the page benches start: `BENCH_SHELL_PORT` (4500; the remotes on +1…4, the API on +80, the
 * simulator on the API's +100), so two checkouts on one machine can bench side by side
 */
export const SHELL_PORT = Number(process.env.BENCH_SHELL_PORT ?? 4500);
export const API_PORT = SHELL_PORT + 80;
/** The simulator `scripts/start.mjs` starts beside the API (its +100) */
export const SIM_PORT = API_PORT + 100;
const DATA_DIR = join(repo, '.data/bench');

/** The whole product as `./kestrel start` runs it (production builds, real server), on its own ports */
export async function startProduct(): Promise<() => void> {
  const child = spawn(process.execPath, [join(repo, 'scripts/start.mjs')], {
    env: {
      ...process.env,
      KESTREL_SHELL_PORT: String(SHELL_PORT),
      KESTREL_PORT: String(API_PORT),
      KESTREL_DATA_DIR: DATA_DIR,
      KESTREL_FRESH_DATA: '1',
      KESTREL_LOG_LEVEL: 'warn',
      // The page benches sign a new trader up per run
      KESTREL_SIGNUPS_PER_IP_HOUR: '1000',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${API_PORT}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error('The product did not start within 60 s (see `node scripts/start.mjs`)');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return () => child.kill('SIGTERM');
}

/** Signs a new trader up through the landing page of the shell at `shellUrl`, as a visitor does; ends on /dashboard */
export async function signUpOnLanding(page: Page, shellUrl: string): Promise<void> {
  await page.goto(`${shellUrl}/`);
  await page.getByRole('button', { name: 'Create an account' }).click();
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('Email').fill(`bench-${Date.now()}@example.com`);
  await form.getByLabel('Password').fill('bench passphrase');
  await form.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/dashboard$/);
}

/** Signs a new trader up through the landing page; the session (local storage) for new contexts to start from */
export async function signedInState(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUpOnLanding(page, `http://127.0.0.1:${SHELL_PORT}`);
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * As a trader who chose "Skip for Now" in this tab: the connect modal (1 s after a page with no exchange) stays shut.
 * The key is connect-exchange-prompt.tsx's
 */
export async function skipConnectPrompt(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const user = JSON.parse(localStorage.getItem('kestrel-user') ?? '{}') as { id?: string };
    sessionStorage.setItem(`kestrel-connect-prompt-skipped:${user.id}`, '1');
  });
}

/** An exchange key pair of the product's simulator */
export interface SimKeys {
  apiKey: string;
  secretKey: string;
}

/** A simulator account of the bench's own (the admin API, with the token `scripts/start.mjs` keeps in the data folder) */
export async function createSimAccount(usdt: string): Promise<SimKeys> {
  const token =
    process.env.KESTREL_SIM_ADMIN_TOKEN || readFileSync(join(DATA_DIR, 'sim-admin-token'), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${SIM_PORT}/_sim/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sim-admin-token': token },
    body: JSON.stringify({ balances: { USDT: usdt }, permissions: { enableFutures: true } }),
  });
  if (res.status !== 201)
    throw new Error(`The simulator refused an account: ${res.status} ${await res.text()}`);
  return (await res.json()) as SimKeys;
}

/** A signed fapi call to the simulator, as Binance takes one (another app on the same account) */
export async function simSigned<T>(
  keys: SimKeys,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string> = {},
): Promise<T> {
  const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
  const signature = createHmac('sha256', keys.secretKey).update(query).digest('hex');
  const res = await fetch(`http://127.0.0.1:${SIM_PORT}${path}?${query}&signature=${signature}`, {
    method,
    headers: { 'X-MBX-APIKEY': keys.apiKey },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * A simulator account holding a position of 0.01 `symbol` long with two resting limit orders (5 % under and over
 * the price): what a connected trader's /dashboard reads
 */
export async function tradingSimAccount(symbol: string): Promise<SimKeys> {
  const keys = await createSimAccount('10000');
  await simSigned(keys, 'POST', '/fapi/v1/order', { symbol, side: 'BUY', type: 'MARKET', quantity: '0.010' });
  const res = await fetch(`http://127.0.0.1:${SIM_PORT}/fapi/v1/ticker/price?symbol=${symbol}`);
  const last = Number(((await res.json()) as { price: string }).price);
  for (const [side, factor] of [
    ['BUY', 0.95],
    ['SELL', 1.05],
  ] as const) {
    await simSigned(keys, 'POST', '/fapi/v1/order', {
      symbol,
      side,
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.010',
      price: (Math.round(last * factor * 10) / 10).toFixed(1),
    });
  }
  return keys;
}

/**
 * Signs a new trader up through the landing page and connects `keys` through the connect modal, as a trader does;
 * the session and connection (local storage) for new contexts to start from
 */
export async function connectedState(browser: Browser, keys: SimKeys) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUpOnLanding(page, `http://127.0.0.1:${SHELL_PORT}`);
  const modal = page.getByRole('dialog', { name: 'Connect Exchange' });
  await modal.waitFor({ timeout: 30_000 });
  await modal
    .getByRole('article', { name: 'Binance' })
    .getByRole('button', { name: 'Connect Exchange' })
    .click();
  const form = modal.getByRole('form', { name: 'Connect Binance Exchange' });
  await form.getByLabel('API Key').fill(keys.apiKey);
  await form.getByLabel('Secret Key').fill(keys.secretKey);
  await form.getByRole('button', { name: 'Connect Exchange' }).click();
  await page.getByText('Successfully connected to Binance', { exact: true }).waitFor({ timeout: 30_000 });
  await modal.waitFor({ state: 'hidden' });
  const state = await context.storageState();
  await context.close();
  return state;
}
