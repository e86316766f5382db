/**
 * The product as a trader's browser meets it, for the cockpit's browser benches: the production builds of the shell
 * and the four remotes, each served as its own static site (as `./kestrel start` serves them), in front of the real
 * server on PGlite and the Binance simulator on the wall clock, all in this process so a bench can seed the database
 * and steer the simulator's prices directly. Ports: `BENCH_SHELL_PORT` (4600; remotes +1…4, API +80), apart from
 * the bundle-size bench's 4500 and the e2e suite's 4300.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Clock, type SymbolSpec, systemClock } from '@kestrel/exchange-sim';
import { serveStaticSite } from '@kestrel/federation/static-site';
import { startTestServer, type TestServer } from '@kestrel/server/testing';
import { type Browser, chromium, type Page } from '@playwright/test';
import { signUpOnLanding } from './product';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const REMOTES = [
  { name: 'dashboard', dir: 'remotes/dashboard' },
  { name: 'bots', dir: 'remotes/bots' },
  { name: 'exchange_connect', dir: 'remotes/exchange-connect' },
  { name: 'account', dir: 'remotes/account' },
] as const;

export interface CockpitSite {
  /** The shell's origin */
  shell: string;
  /** The API's origin */
  api: string;
  server: TestServer;
  browser: Browser;
  close(): Promise<void>;
}

/** Starts the server (simulator with these symbols), the five static sites and Chromium */
export async function startCockpitSite({
  symbols,
  historyDays = 2,
  simClock = systemClock,
  simTickMs,
}: {
  symbols: readonly (string | SymbolSpec)[];
  historyDays?: number;
  /** The simulator's time (the wall clock unless a bench runs its market faster) */
  simClock?: Clock;
  /** How often the simulator catches up with its clock, ms (a second on the wall clock) */
  simTickMs?: number;
}): Promise<CockpitSite> {
  for (const dir of ['shell', ...REMOTES.map((r) => r.dir)]) {
    if (!existsSync(join(repo, dir, 'dist/index.html'))) {
      throw new Error(`${dir}/dist is missing: run \`pnpm build\` first`);
    }
  }
  const shellPort = Number(process.env.BENCH_SHELL_PORT ?? 4600);
  const apiPort = shellPort + 80;
  const host = '127.0.0.1';
  const shell = `http://${host}:${shellPort}`;
  const server = await startTestServer({
    clock: 'wall',
    simulator: { clock: simClock, symbols, historyDays, ...(simTickMs ? { tickMs: simTickMs } : {}) },
    env: {
      KESTREL_LOG_LEVEL: 'warn',
      KESTREL_CORS_ORIGINS: shell,
      // The recorder as it runs in production (the test default turns it off)
      KESTREL_ACCOUNT_RECORDER: 'on',
    },
  });
  const closers: Array<() => Promise<unknown>> = [() => server.close()];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => {});
  };
  try {
    await server.app.listen({ host, port: apiPort });
    const sites = await Promise.all(
      REMOTES.map((r, i) =>
        serveStaticSite({ root: join(repo, r.dir, 'dist'), port: shellPort + 1 + i, host, spa: true }),
      ),
    );
    for (const s of sites) closers.push(() => s.close());
    const runtimeConfig = {
      apiBaseUrl: `http://${host}:${apiPort}`,
      socketBaseUrl: `ws://${host}:${apiPort}/ws`,
      remotes: Object.fromEntries(
        REMOTES.map((r, i) => [r.name, `http://${host}:${shellPort + 1 + i}/mf-manifest.json`]),
      ),
    };
    const shellSite = await serveStaticSite({
      root: join(repo, 'shell/dist'),
      port: shellPort,
      host,
      spa: true,
      json: { '/config.json': runtimeConfig },
    });
    closers.push(() => shellSite.close());
    const browser = await chromium.launch({
      executablePath: process.env.KESTREL_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    closers.push(() => browser.close());
    return { shell, api: runtimeConfig.apiBaseUrl, server, browser, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * A trader signed up through the landing page with a fresh simulator account connected (through the API: the
 * benches measure pages, not the connect modal); ends on /dashboard. Returns the user's id
 */
export async function signUpConnected(site: CockpitSite, page: Page): Promise<{ userId: string }> {
  // The connect prompt would open over the page a second after sign-up: it is skipped as a trader would skip it
  await page.addInitScript(() => {
    const user = JSON.parse(localStorage.getItem('kestrel-user') ?? '{}') as { id?: string };
    if (user.id) sessionStorage.setItem(`kestrel-connect-prompt-skipped:${user.id}`, '1');
  });
  await signUpOnLanding(page, site.shell);
  const { token, userId } = await page.evaluate(() => ({
    token: localStorage.getItem('kestrel-access-token') ?? '',
    userId: (JSON.parse(localStorage.getItem('kestrel-user') ?? '{}') as { id?: string }).id ?? '',
  }));
  const keys = site.server.demoKeys({ balances: { USDT: '10000' } });
  const res = await fetch(`${site.api}/api/v1/credentials/binance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: keys.apiKey, secret_key: keys.secretKey }),
  });
  if (res.status !== 201) throw new Error(`connecting the keys failed: ${res.status} ${await res.text()}`);
  return { userId };
}

/** p-quantile of sorted numbers (nearest rank) */
export function quantile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? Number.NaN;
}

/** "p50 1.2 ms, p95 3.4 ms, p99 5.6 ms, max 7.8 ms (n = 900)" */
export function summary(values: readonly number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  return `p50 ${ms(quantile(s, 0.5))}, p95 ${ms(quantile(s, 0.95))}, p99 ${ms(quantile(s, 0.99))}, max ${ms(s[s.length - 1] ?? Number.NaN)} (n = ${s.length})`;
}
