/**
 * /history with 10,000 fills, scrolled top to bottom in Chromium (issue 16: no long task over 50 ms). The fills are
 * written into the server's database (PGlite, the `trade_history` table the recorder fills from Binance) for a
 * connected trader, so the page reads them as it reads real ones: filtered, sorted and paged by the server, 200 rows
 * a request, the virtualised table keeping a window of rows in the DOM.
 *
 * The scroll runs in the page, a step per animation frame (a fast fling: BENCH_SCROLL_STEP px, 600 by default),
 * waiting at the bottom of what is loaded until the next page arrives, until all 10,000 rows are in. Long tasks come
 * from PerformanceObserver('longtask') in the page; the frame gaps from the same rAF loop.
 *
 * Reference in the same run and page: the long tasks of loading /history itself (from navigation to the first rows).
 * Figures, never a pass/fail.
 *
 *   pnpm bench history-scroll
 */
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signUpConnected, startCockpitSite } from './lib/cockpit-site';
import { traceMainThread } from './lib/main-thread-trace';

const ROWS = 10_000;
const STEP = Number(process.env.BENCH_SCROLL_STEP ?? 600);

interface ScrollResult {
  ms: number;
  frames: number;
  /** Gaps between two animation frames over 50 ms (a frame the trader sees stutter) */
  slowFrames: number[];
  rowCount: number;
  /** Rows in the DOM at the end (the virtual window) */
  domRows: number;
}

/** What `lib/scroll-probe.js` puts on the page's window */
interface Probe {
  __longTasks: { start: number; duration: number }[];
  __scrollToBottom(table: Element, rows: number, step: number): Promise<ScrollResult>;
}

export default async function historyScroll(): Promise<void> {
  const site = await startCockpitSite({ symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'] });
  try {
    const page = await site.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    // Starting up is not what is measured, and on a busy machine it can take a while
    page.setDefaultTimeout(120_000);
    await page.addInitScript({ path: join(dirname(fileURLToPath(import.meta.url)), 'lib/scroll-probe.js') });
    const { userId } = await signUpConnected(site, page);

    // One fill a minute back from now, on the testnet account the user is on: BTCUSDT, ETHUSDT and SOLUSDT in turn, buys and sells alternating
    await site.server.database.db.query(
      `INSERT INTO trade_history (user_id, environment, symbol, trade_id, order_id, side, position_side, price,
                                  quantity, quote_quantity, realized_pnl, commission, commission_asset, maker, time)
       SELECT $1, 'testnet', (ARRAY['BTCUSDT', 'ETHUSDT', 'SOLUSDT'])[1 + i % 3], i, 100000 + i,
              CASE WHEN i % 2 = 0 THEN 'BUY' ELSE 'SELL' END, 'BOTH', (1000 + i)::numeric, 0.010, (10 + i / 100.0),
              CASE WHEN i % 2 = 0 THEN 0 ELSE 0.5 END, 0.001, 'USDT', i % 4 = 0,
              to_timestamp(($2::float8 - i * 60000) / 1000)
         FROM generate_series(1, $3::int) AS i`,
      [userId, Date.now(), ROWS],
    );

    let requests = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/dashboard/history/trades')) requests += 1;
    });
    await page.goto(`${site.shell}/history`);
    const table = page.getByRole('table', { name: 'Trades' });
    await page.getByText(/^10,000 trades,/).waitFor();
    await table.locator('tbody tr').first().waitFor();
    const loaded = await page.evaluate(() => performance.now());

    const trace = await traceMainThread(site.browser, page);
    const result = await table.evaluate(
      (el, { rows, step }) => (window as unknown as Probe).__scrollToBottom(el, rows, step),
      { rows: ROWS, step: STEP },
    );
    const thread = await trace.stop();
    const tasks = await page.evaluate(() => (window as unknown as Probe).__longTasks);
    const during = tasks.filter((t) => t.start >= loaded).map((t) => t.duration);
    const atLoad = tasks.filter((t) => t.start < loaded).map((t) => t.duration);
    const tasksText = (xs: number[]) =>
      xs.length === 0
        ? 'none'
        : `${xs.length}, longest ${Math.max(...xs).toFixed(0)} ms, total ${xs.reduce((a, b) => a + b, 0).toFixed(0)} ms`;

    console.info(
      `scrolled ${result.rowCount.toLocaleString('en-US')} rows top to bottom in ${(result.ms / 1000).toFixed(1)} s (${STEP} px a frame, ${result.frames} frames, ${requests} page requests of 200); ${result.domRows} rows in the DOM at the end`,
    );
    console.info(`long tasks while scrolling:   ${tasksText(during)}`);
    console.info(
      `  by the main thread's own CPU time (trace): ${thread.overCpu.length} over 50 ms, longest ${thread.longestCpu.toFixed(0)} ms; ${thread.tasks} tasks, ${(thread.cpuMs / 1000).toFixed(1)} s CPU in ${(thread.wallMs / 1000).toFixed(1)} s wall`,
    );
    console.info(
      `frames later than 50 ms:      ${result.slowFrames.length}${result.slowFrames.length ? `, longest ${Math.max(...result.slowFrames).toFixed(0)} ms` : ''}`,
    );
    console.info(`reference: loading /history  long tasks ${tasksText(atLoad)}`);
    console.info(`machine load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`);
    console.info(
      `goal no long task over 50 ms while scrolling: ${during.length === 0 ? 'within' : `OVER (${during.length})`}`,
    );
  } finally {
    await site.close();
  }
}
