/**
 * Paint speed, cold, on localhost: First and Largest Contentful Paint (Chromium's PerformanceObserver) of the
 * landing page and of /dashboard opened in a new tab by a signed-in trader, each in a fresh browser context (no
 * cache), from the production builds served as separate sites with the real server. Printed with the JS each page
 * loaded, beside a reference in the same run: a bare HTML page with one heading from the same static server, the
 * floor of a paint on this machine. Goals (platform issue): landing LCP ≤ 500 ms, /dashboard ≤ 800 ms.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveStaticSite } from '@kestrel/federation/static-site';
import { chromium, type Page } from '@playwright/test';
import { SHELL_PORT, signedInState, skipConnectPrompt, startProduct } from './lib/product';

const RUNS = Number(process.env.BENCH_PAINT_RUNS ?? 5);
const probe = join(import.meta.dirname, 'lib/paint-probe.js');

type Paint = { fcp: number; lcp: number; jsKb: number };

async function paintOf(page: Page, url: string, ready: (page: Page) => Promise<void>): Promise<Paint> {
  await page.addInitScript({ path: probe });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => {
    const paint = (window as unknown as { __paint: { fcp: number | null; lcp: number | null } }).__paint;
    const js = performance
      .getEntriesByType('resource')
      .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script')
      .reduce((sum, e) => sum + (e as PerformanceResourceTiming).encodedBodySize, 0);
    return { fcp: paint.fcp ?? Number.NaN, lcp: paint.lcp ?? Number.NaN, jsKb: js / 1024 };
  });
}

async function runs(
  open: () => Promise<Page>,
  url: string,
  ready: (page: Page) => Promise<void>,
): Promise<Paint[]> {
  const results: Paint[] = [];
  for (let i = 0; i < RUNS; i++) {
    const page = await open();
    results.push(await paintOf(page, url, ready));
    await page.context().close();
  }
  return results;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function report(name: string, results: Paint[], reference: number, goalMs?: number) {
  const lcp = median(results.map((r) => r.lcp));
  const fcp = median(results.map((r) => r.fcp));
  const js = median(results.map((r) => r.jsKb));
  const goal = goalMs ? `  goal ≤ ${goalMs} ms: ${lcp <= goalMs ? 'within' : 'OVER'}` : '';
  console.info(
    `${name.padEnd(11)} LCP ${lcp.toFixed(0).padStart(5)} ms (${(lcp / reference).toFixed(1)}× bare)  FCP ${fcp
      .toFixed(0)
      .padStart(5)} ms  JS ${js.toFixed(0).padStart(4)} KB as sent  (median of ${results.length})${goal}`,
  );
}

export default async function pagePaint(): Promise<void> {
  const bareDir = mkdtempSync(join(tmpdir(), 'bench-bare-'));
  writeFileSync(join(bareDir, 'index.html'), '<!doctype html><title>bare</title><h1>Kestrel</h1>');
  const bare = await serveStaticSite({ root: bareDir, port: 0 });
  const stop = await startProduct();
  const browser = await chromium.launch({
    executablePath: process.env.KESTREL_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const shell = `http://127.0.0.1:${SHELL_PORT}`;
  try {
    const fresh = async () => (await browser.newContext()).newPage();
    const reference = await runs(fresh, `${bare.url}/`, async (page) => {
      await page.getByRole('heading', { name: 'Kestrel' }).waitFor();
    });
    const landing = await runs(fresh, `${shell}/`, async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Kestrel' }).waitFor();
    });
    const state = await signedInState(browser);
    const signedIn = async () => {
      const context = await browser.newContext({ storageState: state });
      // As a trader who chose "Skip for Now": the connect modal is the bundle bench's own line
      await skipConnectPrompt(context);
      return context.newPage();
    };
    const dashboard = await runs(signedIn, `${shell}/dashboard`, async (page) => {
      await page.locator('section[data-remote="dashboard"] canvas').first().waitFor({ timeout: 60_000 });
    });
    const floor = median(reference.map((r) => r.lcp));
    report('bare page', reference, floor);
    report('landing', landing, floor, 500);
    report('/dashboard', dashboard, floor, 800);
  } finally {
    await browser.close();
    stop();
    await bare.close();
    rmSync(bareDir, { recursive: true, force: true });
  }
}
