/**
 * Socket tick → DOM update on /dashboard's market watch, in Chromium, with 50 symbols streaming (issue 16: p99 under
 * 50 ms). The simulator lists 50 contracts and each one's price is driven along a straight line, so each ticker
 * (every 2 s per symbol, Binance's update speed: 25 a second for 50) brings a new price: the simulator's stream → the
 * server's one upstream per symbol → the page's socket → the runtime → React → the row's price cell.
 *
 * Stamped in the page: a listener on the page's WebSocket (added before the runtime's own handler) notes when each
 * ticker frame arrives (performance.now), and a MutationObserver on the market watch notes when a row's price cell
 * shows it. A tick whose price the cell already shows changes nothing and is not counted; ticks that arrive before
 * the cell caught up with an earlier one are measured from the earliest (the page renders at most once a frame, so
 * a tick can be shown with the next one: the delay counts from when the first of them arrived).
 *
 * Reference in the same run and page: the delay from each ticker frame to the page's next animation frame, the
 * least a page that renders once a frame can do; and per tick, the page's own part, from that frame to the cell
 * (load stretches both the same way, so this part is the one to compare between runs). Figures, never a pass/fail.
 *
 *   pnpm bench cockpit-ticks     (BENCH_SECONDS, 30 by default: how long prices stream while measured)
 */
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KNOWN_SYMBOLS, type SymbolSpec } from '@kestrel/exchange-sim';
import { type CockpitSite, signUpConnected, startCockpitSite, summary } from './lib/cockpit-site';
import { traceMainThread } from './lib/main-thread-trace';

const SYMBOLS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);

/** 50 perpetual contracts on SOLUSDT's rules at prices from 20 to 500, so the cells' widths differ as in life */
function contracts(): SymbolSpec[] {
  const base = KNOWN_SYMBOLS.find((s) => s.symbol === 'SOLUSDT');
  if (!base) throw new Error('the simulator no longer lists SOLUSDT');
  return Array.from({ length: SYMBOLS }, (_, i) => {
    const asset = `K${String(i).padStart(2, '0')}`;
    return { ...base, symbol: `${asset}USDT`, baseAsset: asset, startPrice: 20 + i * 10 };
  });
}

/** What the page collected (`lib/tick-probe.js`) */
interface Probe {
  latencies: number[];
  frameDelays: number[];
  /** Per shown tick: from its next animation frame to the cell showing it (0: within that frame) */
  afterFrame: number[];
  longTasks: number[];
  ticks: number;
  removedNodes: number;
  unchanged: number;
  coalesced: number;
  unmatched: number;
}

declare global {
  interface Window {
    __tickProbe?: { observe(table: Element): void; take(): Probe };
  }
}

async function drivePrices(site: CockpitSite, symbols: readonly SymbolSpec[], seconds: number) {
  // From each contract's start price, 4 % up in a straight line over the run (≥ 0.13 a second: every tick moves)
  await Promise.all(
    symbols.map(async (s) => {
      const from = s.startPrice;
      const res = await fetch(`${site.server.simUrl}/_sim/prices/${s.symbol}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          path: [
            { price: from.toFixed(2), afterMs: 0 },
            { price: (from * 1.04).toFixed(2), afterMs: (seconds + 10) * 1000 },
          ],
        }),
      });
      if (!res.ok) throw new Error(`the simulator refused a price path: ${res.status} ${await res.text()}`);
    }),
  );
}

export default async function cockpitTicks(): Promise<void> {
  const symbols = contracts();
  const site = await startCockpitSite({ symbols });
  try {
    const page = await site.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    // Starting up is not what is measured, and on a busy machine it can take a while
    page.setDefaultTimeout(120_000);
    await page.addInitScript({ path: join(dirname(fileURLToPath(import.meta.url)), 'lib/tick-probe.js') });
    const { userId } = await signUpConnected(site, page);
    // The watch list holds all 50 (the runtime keeps it in this browser's storage, per user)
    await page.evaluate(({ key, list }) => localStorage.setItem(key, JSON.stringify(list)), {
      key: `kestrel-watch-list:${userId}`,
      list: symbols.map((s) => s.symbol),
    });
    await page.goto(`${site.shell}/dashboard`);
    const table = page.getByRole('table', { name: 'Market watch' });
    await table.getByRole('row').nth(SYMBOLS).waitFor();
    await page.getByRole('figure', { name: /· 1h$/ }).locator('canvas').first().waitFor();

    await drivePrices(site, symbols, SECONDS);
    // The first pushes carry the jump to the path's start: let every row take it, then measure from a clean slate
    await page.waitForFunction(() => (window.__tickProbe?.take().ticks ?? 0) >= 100);
    await table.evaluate((el) => window.__tickProbe?.observe(el));
    const started = await page.evaluate(() => {
      const p = window.__tickProbe?.take();
      return { ticks: p?.ticks ?? 0, frames: p?.frameDelays.length ?? 0 };
    });
    const trace = await traceMainThread(site.browser, page);
    await page.waitForTimeout(SECONDS * 1000);
    const probe = await page.evaluate(() => window.__tickProbe?.take() as Probe);
    const thread = await trace.stop();

    const ticks = probe.ticks - started.ticks;
    console.info(
      `${SYMBOLS} symbols streaming for ${SECONDS} s: ${ticks} ticker frames reached the page (${(ticks / SECONDS).toFixed(1)}/s), ${probe.unchanged} without a new price`,
    );
    console.info(`tick → DOM (market watch cell)    ${summary(probe.latencies)}`);
    console.info(`reference: tick → next frame      ${summary(probe.frameDelays.slice(started.frames))}`);
    console.info(`the page's part: next frame → DOM ${summary(probe.afterFrame)}`);
    console.info(
      `nodes removed from the market watch while measured: ${probe.removedNodes} (${(probe.removedNodes / Math.max(1, probe.latencies.length)).toFixed(1)} per cell update)`,
    );
    console.info(
      `long tasks while measured: ${probe.longTasks.length}, longest ${Math.max(0, ...probe.longTasks).toFixed(0)} ms; machine load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`,
    );
    console.info(
      `main thread by its own CPU time (trace): ${(thread.cpuMs / 1000).toFixed(2)} s CPU in ${SECONDS} s (${((thread.cpuMs / (SECONDS * 1000)) * 100).toFixed(1)} %), ${thread.overCpu.length} tasks over 50 ms, longest ${thread.longestCpu.toFixed(0)} ms`,
    );
    console.info(
      `ticks shown together with a later one: ${probe.coalesced}; cell changes matching no tick (REST refreshes): ${probe.unmatched}`,
    );
    const sorted = [...probe.latencies].sort((a, b) => a - b);
    const p99 = sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN;
    console.info(`goal p99 < 50 ms: ${p99 < 50 ? 'within' : 'OVER'} (${p99.toFixed(1)} ms)`);
  } finally {
    await site.close();
  }
}
