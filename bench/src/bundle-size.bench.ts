/**
 * Bundle-size budget: the JS and CSS Chromium loads for the landing page and for /dashboard, from the production
 * builds served as separate sites with the real server (as `./kestrel start` runs them). Bytes as served and gzip
 * (level 9), against the targets: landing <= 150 KB gzip JS (platform issue), /dashboard with its charts <= 350 KB
 * gzip JS+CSS (trader's cockpit issue). Two lines without a target say what comes on top of /dashboard: the connect
 * modal, and /backtesting reached from it by the menu. Each page also lists what weighs most, by package, from the
 * builds' source maps: a library loaded twice (once per app) shows as two copies.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { SourceMapConsumer } from 'source-map-js';
import { SHELL_PORT, signedInState, skipConnectPrompt, startProduct } from './lib/product';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const remotes = ['remotes/dashboard', 'remotes/bots', 'remotes/exchange-connect', 'remotes/account'];

type Loaded = { url: string; kind: 'js' | 'css'; bytes: number; gzip: number };

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** What the page loads from `url` (or, with null, from where it is) until `ready` and network idle */
async function measure(
  page: Page,
  url: string | null,
  ready: (page: Page) => Promise<void>,
): Promise<Loaded[]> {
  const loaded: Promise<Loaded | null>[] = [];
  const onResponse = (response: import('@playwright/test').Response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    loaded.push(
      response.body().then(
        (body) => ({
          url: response.url(),
          kind: type === 'script' ? 'js' : 'css',
          bytes: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
        }),
        () => null,
      ),
    );
  };
  page.on('response', onResponse);
  if (url) await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return (await Promise.all(loaded)).filter((x): x is Loaded => x !== null);
}

/** What a page's target counts: its gzip JS, or its gzip JS and CSS together */
type Target = { kb: number; counts: 'js' | 'js+css' };

/** The app whose build served a file, from the port the start script gives each app */
function appOf(url: URL): string {
  const apps = ['shell', ...remotes];
  return apps[Number(url.port) - SHELL_PORT] ?? url.host;
}

/**
 * Where a file's gzip bytes come from: its source map splits the minified text among source files, grouped by
 * package (`zod`, `shell`, `remotes/dashboard`…); each group gets its share of the file's gzip size. An estimate
 * (gzip does not compress every part alike), good enough to find what weighs most and what loads twice.
 */
function contributors(file: Loaded): Map<string, number> {
  const url = new URL(file.url);
  const path = join(repo, appOf(url), 'dist', url.pathname);
  const out = new Map<string, number>();
  if (!existsSync(`${path}.map`)) {
    out.set(`${appOf(url)} (no source map)`, file.gzip);
    return out;
  }
  const lines = readFileSync(path, 'utf8').split('\n');
  const map = new SourceMapConsumer(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
  const chars = new Map<string, number>();
  let previous: { line: number; column: number; owner: string } | undefined;
  const close = (line: number, column: number) => {
    if (!previous) return;
    const end = line === previous.line ? column : (lines[previous.line - 1]?.length ?? 0);
    chars.set(previous.owner, (chars.get(previous.owner) ?? 0) + Math.max(0, end - previous.column));
  };
  map.eachMapping((m) => {
    close(m.generatedLine, m.generatedColumn);
    previous = { line: m.generatedLine, column: m.generatedColumn, owner: packageOf(m.source, appOf(url)) };
  });
  close(Number.POSITIVE_INFINITY, 0);
  const total = [...chars.values()].reduce((a, b) => a + b, 0) || 1;
  for (const [owner, n] of chars) out.set(owner, (file.gzip * n) / total);
  return out;
}

/** `node_modules/.pnpm/x@1/node_modules/@scope/name/…` → `@scope/name`; workspace sources → their package folder */
function packageOf(source: string | null, app: string): string {
  if (!source) return `${app} (runtime)`;
  const lib = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (lib?.[1]) return lib[1];
  const workspace = /(packages\/[^/]+|remotes\/[^/]+|shell)\/src\//.exec(source);
  if (workspace?.[1]) return workspace[1];
  return source.startsWith('webpack://') && source.includes('/src/') ? app : `${app} (runtime)`;
}

/** `target` undefined: a share of a page (the modal), with no target of its own */
function report(name: string, files: Loaded[], target?: Target) {
  const sum = (kind: 'js' | 'css', key: 'bytes' | 'gzip') =>
    files.filter((f) => f.kind === kind).reduce((a, f) => a + f[key], 0);
  const jsGzip = sum('js', 'gzip');
  const counted = target?.counts === 'js+css' ? jsGzip + sum('css', 'gzip') : jsGzip;
  const verdict =
    target === undefined
      ? ''
      : `, ${target.counts.toUpperCase()} ${kb(counted)}: ${((counted / (target.kb * 1024)) * 100).toFixed(0)}% of ${target.kb} KB target: ${counted <= target.kb * 1024 ? 'within' : 'OVER'}`;
  console.info(
    `${name.padEnd(11)} JS ${kb(sum('js', 'bytes')).padStart(9)} (gzip ${kb(jsGzip).padStart(8)})   CSS ${kb(sum('css', 'bytes')).padStart(8)} (gzip ${kb(sum('css', 'gzip'))})   files ${files.length}${verdict}`,
  );
  for (const f of files.sort((a, b) => b.gzip - a.gzip)) {
    console.info(`    ${kb(f.gzip).padStart(8)} gzip  ${new URL(f.url).host}${new URL(f.url).pathname}`);
  }
  // By package and by the app whose build served it: the same package under two apps is a duplicate
  const byPackage = new Map<string, number>();
  for (const f of files) {
    for (const [owner, gzip] of contributors(f)) {
      const key = `${owner}  [${appOf(new URL(f.url))}]`;
      byPackage.set(key, (byPackage.get(key) ?? 0) + gzip);
    }
  }
  const top = [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, TOP_CONTRIBUTORS);
  console.info(`  top ${top.length} contributors (gzip, estimated from source maps):`);
  for (const [key, gzip] of top) console.info(`    ${kb(gzip).padStart(8)}  ${key}`);
}

const TOP_CONTRIBUTORS = 15;

export default async function bundleSize(): Promise<void> {
  for (const dir of ['shell', ...remotes]) {
    if (!existsSync(join(repo, dir, 'dist/index.html'))) {
      throw new Error(`${dir}/dist is missing: run \`pnpm build\` first`);
    }
  }
  const stop = await startProduct();
  const shell = `http://127.0.0.1:${SHELL_PORT}`;
  const browser = await chromium.launch({
    executablePath: process.env.KESTREL_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const landing = await measure(await browser.newPage(), `${shell}/`, async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Kestrel' }).waitFor();
    });

    // A signed-in trader opening /dashboard in a new tab (session in storage, code not yet cached)
    const state = await signedInState(browser);
    const fresh = await browser.newContext({ storageState: state });
    // A new trader has no exchange, so the connect modal opens 1 s after the page (spec §2) and brings the
    // exchange-connect remote; whether that beats network idle varies from run to run. So /dashboard is measured
    // as a trader who chose "Skip for Now" in this tab sees it, and the modal on its own line: what a page with
    // the modal loads beyond that.
    const skipped = await browser.newContext({ storageState: state });
    await skipConnectPrompt(skipped);
    // Measured with its chart drawn: the charting library is a lazy chunk that arrives after the price data, so
    // waiting for the page alone counted it on some runs and left it to the modal's line on others
    const dashboard = await measure(await skipped.newPage(), `${shell}/dashboard`, async (page) => {
      await page.locator('section[data-remote="dashboard"] canvas').first().waitFor({ timeout: 60_000 });
    });
    const withModal = await measure(await fresh.newPage(), `${shell}/dashboard`, async (page) => {
      await page.getByRole('dialog', { name: 'Connect Exchange' }).waitFor();
    });
    if (dashboard.some((f) => new URL(f.url).port === String(SHELL_PORT + 3))) {
      throw new Error(
        'The connect modal opened anyway: the skip key no longer matches connect-exchange-prompt.tsx',
      );
    }
    // The backtesting page as a trader reaches it: from /dashboard by the menu, in the same page, so what the
    // page already holds (shared modules included) is not counted again
    const backtesting = await (async () => {
      const page = await skipped.newPage();
      await page.goto(`${shell}/dashboard`);
      await page.locator('section[data-remote="dashboard"] canvas').first().waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      return measure(page, null, async (p) => {
        await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Backtesting' }).click();
        await p.getByRole('form', { name: 'New backtest' }).waitFor({ timeout: 60_000 });
      });
    })();
    const onDashboard = new Set(dashboard.map((f) => f.url));
    report('landing', landing, { kb: 150, counts: 'js' });
    report('/dashboard', dashboard, { kb: 350, counts: 'js+css' });
    report(
      '+ modal',
      withModal.filter((f) => !onDashboard.has(f.url)),
    );
    report('+ /backtest', backtesting);
  } finally {
    await browser.close();
    stop();
  }
}
