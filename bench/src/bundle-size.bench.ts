/**
 * Bundle-size budget: the JS and CSS Chromium loads for the landing page and for /dashboard, from the production
 * builds served as separate sites (as deployed). Bytes as served and gzip (level 9), against the targets of the
 * platform issue: landing <= 150 KB gzip JS, /dashboard <= 250 KB gzip JS.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { serveStaticSite } from '@kestrel/federation/static-site';
import { chromium, type Page } from '@playwright/test';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const remotes = [
  ['dashboard', 'remotes/dashboard'],
  ['bots', 'remotes/bots'],
  ['exchange_connect', 'remotes/exchange-connect'],
  ['account', 'remotes/account'],
] as const;

type Loaded = { url: string; kind: 'js' | 'css'; bytes: number; gzip: number };

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function measure(page: Page, url: string, ready: (page: Page) => Promise<void>): Promise<Loaded[]> {
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
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return (await Promise.all(loaded)).filter((x): x is Loaded => x !== null);
}

function report(name: string, files: Loaded[], jsTargetKb: number) {
  const sum = (kind: 'js' | 'css', key: 'bytes' | 'gzip') =>
    files.filter((f) => f.kind === kind).reduce((a, f) => a + f[key], 0);
  const jsGzip = sum('js', 'gzip');
  const verdict = jsGzip <= jsTargetKb * 1024 ? 'within' : 'OVER';
  console.info(
    `${name.padEnd(11)} JS ${kb(sum('js', 'bytes')).padStart(9)} (gzip ${kb(jsGzip).padStart(8)}, ${((jsGzip / (jsTargetKb * 1024)) * 100).toFixed(0)}% of ${jsTargetKb} KB target: ${verdict})   CSS ${kb(sum('css', 'bytes')).padStart(8)} (gzip ${kb(sum('css', 'gzip'))})   files ${files.length}`,
  );
  for (const f of files.sort((a, b) => b.gzip - a.gzip).slice(0, 6)) {
    console.info(`    ${kb(f.gzip).padStart(8)} gzip  ${new URL(f.url).host}${new URL(f.url).pathname}`);
  }
}

export default async function bundleSize(): Promise<void> {
  for (const dir of ['shell', ...remotes.map(([, d]) => d)]) {
    if (!existsSync(join(repo, dir, 'dist/index.html'))) {
      throw new Error(`${dir}/dist is missing: run \`pnpm build\` first`);
    }
  }
  const remoteSites = await Promise.all(
    remotes.map(([, dir]) => serveStaticSite({ root: join(repo, dir, 'dist'), port: 0 })),
  );
  const config = {
    apiBaseUrl: 'http://127.0.0.1:9',
    socketBaseUrl: 'ws://127.0.0.1:9/ws',
    remotes: Object.fromEntries(
      remotes.map(([name], i) => [name, `${remoteSites[i]?.url}/mf-manifest.json`]),
    ),
  };
  const shell = await serveStaticSite({
    root: join(repo, 'shell/dist'),
    port: 0,
    spa: true,
    json: { '/config.json': config },
  });
  const browser = await chromium.launch({
    executablePath: process.env.KESTREL_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const landing = await measure(await browser.newPage(), `${shell.url}/`, async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Kestrel' }).waitFor();
    });
    const dashboard = await measure(await browser.newPage(), `${shell.url}/dashboard`, async (page) => {
      await page.locator('section[data-remote="dashboard"]').waitFor();
    });
    report('landing', landing, 150);
    report('/dashboard', dashboard, 250);
  } finally {
    await browser.close();
    await Promise.all([shell, ...remoteSites].map((s) => s.close()));
  }
}
