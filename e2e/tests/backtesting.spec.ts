import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signUp } from '../support/auth';

const DAY_MS = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

test.describe('backtesting page (bots remote)', () => {
  test('runs a backtest against the server: progress, metrics, charts, trades, then the run among past runs', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signUp(page);
    await page.goto('/backtesting');
    await expect(page.getByRole('heading', { name: 'Backtesting', level: 1 })).toBeVisible();

    // Every value the progress bar shows, recorded in the page so a quick run cannot slip past the test
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Backtest progress"]');
        const now = bar?.getAttribute('aria-valuenow');
        if (now !== null && now !== undefined && seen[seen.length - 1] !== now) seen.push(now);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });

    const form = page.getByRole('form', { name: 'New backtest' });
    await expect(form.getByLabel('Strategy')).toHaveValue('ema-cross');
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    await form.getByLabel('Interval').selectOption('5m');
    await form.getByLabel('Start date').fill(isoDate(today - 8 * DAY_MS));
    await form.getByLabel('End date').fill(isoDate(today - DAY_MS));

    // Checked in the browser with the engine's own rules, the message under the field
    await form.getByLabel('Fast').fill('30');
    await form.getByLabel('Slow').fill('20');
    await form.getByRole('button', { name: 'Run backtest' }).click();
    await expect(form.getByLabel('Fast')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('fast must be below slow')).toBeVisible();

    await form.getByLabel('Fast').fill('5');
    await form.getByRole('button', { name: 'Run backtest' }).click();
    await expect(page).toHaveURL(/[?&]run=[0-9a-f-]{36}/);

    const results = page.getByRole('region', { name: /^Results: EMA crossover · BTCUSDT 5m/ });
    await expect(results).toBeVisible({ timeout: 90_000 });
    const progressSeen = await page.evaluate(
      () => (window as unknown as { progressSeen: string[] }).progressSeen,
    );
    expect(progressSeen.length).toBeGreaterThan(0);

    const figures = results.getByRole('definition');
    await expect(results.getByRole('term')).toHaveText([
      'Total return',
      'Annualised return',
      'Max drawdown',
      'Sharpe',
      'Sortino',
      'Calmar',
      'Win rate',
      'Profit factor',
      'Exposure',
      'Fees paid',
      /^Funding (paid|received)$/,
      'Trades',
    ]);
    await expect(figures.first()).toHaveText(/^[+-]?\d+\.\d{2}%$/);
    // A new user has no Binance keys: the run used the default bracket table, and the page says so
    await expect(
      results.getByText(
        "Liquidation uses BTCUSDT's default leverage brackets; connect your Binance keys for BTCUSDT's own.",
      ),
    ).toBeVisible();

    // lightweight-charts draws on canvases, loaded with the page's chart chunk
    await expect(results.locator('[data-chart="equity"] canvas').first()).toBeVisible();
    await expect(results.locator('[data-chart="candles"] canvas').first()).toBeVisible();

    const trades = results.getByRole('table', { name: 'Trades' });
    await expect(trades).toBeVisible();
    expect(await trades.getByRole('row').count()).toBeGreaterThan(1);
    await expect(trades.getByRole('row').nth(1)).toContainText(/Long|Short/);

    const past = page.getByRole('table', { name: 'Past runs' });
    const row = past.getByRole('row', { name: /EMA crossover · BTCUSDT 5m/ });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Completed');
    await expect(row.getByRole('checkbox', { name: /^Compare EMA crossover/ })).toBeEnabled();

    // No serious WCAG A/AA violation (contrast included) in either theme
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') {
        await page.getByRole('button', { name: 'Switch to dark theme' }).click();
        await expect(page.locator('html')).toHaveClass(/dark/);
      }
      const axe = await new AxeBuilder({ page })
        .include('[data-remote="bots"]')
        .withTags(['wcag2a', 'wcag2aa'])
        .analyze();
      const serious = axe.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${theme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious).toEqual([]);
    }

    // A phone: the page itself never scrolls sideways (wide tables scroll inside their own frame)
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(form.getByRole('button', { name: 'Run backtest' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('runs on weekly bars, and says when a range holds no closed monthly bar', async ({ page }) => {
    test.setTimeout(120_000);
    await signUp(page);
    await page.goto('/backtesting');
    const form = page.getByRole('form', { name: 'New backtest' });
    const now = new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

    // This month's bar is still open: the form says so under End date, before asking the server
    await form.getByLabel('Interval').selectOption('1M');
    await form.getByLabel('Start date').fill(isoDate(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
    await form.getByLabel('End date').fill(isoDate(today));
    await form.getByRole('button', { name: 'Run backtest' }).click();
    await expect(
      form.getByText('This range holds no closed 1M bar: widen it or pick a shorter interval'),
    ).toBeVisible();
    await expect(page).not.toHaveURL(/[?&]run=/);

    // Ten weeks of 1w bars, each opening on a Monday, from the simulator through the server's kline cache
    await form.getByLabel('Interval').selectOption('1w');
    await form.getByLabel('Start date').fill(isoDate(today - 70 * DAY_MS));
    await form.getByLabel('End date').fill(isoDate(today - DAY_MS));
    await form.getByLabel('Fast').fill('2');
    await form.getByLabel('Slow').fill('4');
    await form.getByRole('button', { name: 'Run backtest' }).click();
    await expect(page).toHaveURL(/[?&]run=[0-9a-f-]{36}/);
    const results = page.getByRole('region', { name: /^Results: EMA crossover · BTCUSDT 1w/ });
    await expect(results).toBeVisible({ timeout: 90_000 });
    await expect(results.getByRole('definition').first()).toHaveText(/^[+-]?\d+\.\d{2}%$/);
    await expect(results.locator('[data-chart="candles"] canvas').first()).toBeVisible();
    await expect(results.getByText('BTCUSDT · 1w candles with entries and exits')).toBeVisible();
  });

  test("the server's refusal shows under the form, and two runs compare side by side", async ({ page }) => {
    test.setTimeout(120_000);
    await signUp(page);
    await page.goto('/backtesting');
    const form = page.getByRole('form', { name: 'New backtest' });
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    await form.getByLabel('Start date').fill(isoDate(today - 3 * DAY_MS));
    await form.getByLabel('End date').fill(isoDate(today - DAY_MS));

    // A symbol the exchange does not list: only the server can know
    await form.getByLabel('Symbol').fill('NOSUCHUSDT');
    await form.getByRole('button', { name: 'Run backtest' }).click();
    // The server's 400 detail, under the form
    await expect(form.getByRole('alert')).toHaveText(
      'Invalid backtest: symbol: NOSUCHUSDT is not listed on the exchange',
    );
    await expect(page).not.toHaveURL(/[?&]run=/);

    const results = page.getByRole('region', { name: /^Results:/ });
    await form.getByLabel('Symbol').fill('BTCUSDT');
    for (const fast of ['5', '8']) {
      const before = page.url();
      await form.getByLabel('Fast').fill(fast);
      await form.getByRole('button', { name: 'Run backtest' }).click();
      // The new run's id replaces the last one in the address before its results can show
      await expect.poll(() => page.url()).not.toBe(before);
      await expect(page).toHaveURL(/[?&]run=[0-9a-f-]{36}/);
      await expect(results).toBeVisible({ timeout: 60_000 });
    }
    const past = page.getByRole('table', { name: 'Past runs' });
    const completed = past
      .getByRole('row', { name: /EMA crossover · BTCUSDT 1h/ })
      .filter({ hasText: 'Completed' });
    await expect(completed).toHaveCount(2);
    await completed.nth(0).getByRole('checkbox').check();
    await completed.nth(1).getByRole('checkbox').check();
    const comparison = page.getByRole('table', { name: 'Comparison of selected runs' });
    await expect(comparison.getByRole('row', { name: /^Total return/ })).toBeVisible();
    await expect(comparison.getByRole('row', { name: /^Sharpe/ }).getByRole('cell')).toHaveCount(2);

    // Delete asks first, then the run leaves the list and the comparison
    await completed
      .nth(0)
      .getByRole('button', { name: /^Delete/ })
      .click();
    await completed
      .nth(0)
      .getByRole('button', { name: /^Confirm delete/ })
      .click();
    await expect(
      past.getByRole('row', { name: /EMA crossover · BTCUSDT 1h/ }).filter({ hasText: 'Completed' }),
    ).toHaveCount(1);
    await expect(comparison).toBeHidden();
  });

  test('Cancel stops a long run: the page says so, the bar stops, the run is listed canceled, and a new run starts', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await signUp(page);
    await page.goto('/backtesting');
    const form = page.getByRole('form', { name: 'New backtest' });
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    // 1m bars over 88 days of the simulator's history: ~125 000 bars, over 80 pages of klines to download
    // before the engine even starts, far more than the test needs to press Cancel. No other test asks for 1m bars, so
    // none is in the server's kline cache; a retry takes 3m bars, as a first try that failed before its Cancel leaves
    // the whole 1m range cached (its run then jumps straight to 90 %)
    const interval = testInfo.retry === 0 ? '1m' : '3m';
    await form.getByLabel('Interval').selectOption(interval);
    await form.getByLabel('Start date').fill(isoDate(today - 88 * DAY_MS));
    await form.getByLabel('End date').fill(isoDate(today - DAY_MS));
    await form.getByRole('button', { name: 'Run backtest' }).click();
    await expect(page).toHaveURL(/[?&]run=[0-9a-f-]{36}/);
    const canceledRunUrl = page.url();

    // Every status the run's row in the past runs shows, recorded in the page so a brief one cannot slip past
    await page.evaluate((name) => {
      const seen: string[] = [];
      (window as unknown as { rowStatuses: string[] }).rowStatuses = seen;
      new MutationObserver(() => {
        const row = [...document.querySelectorAll('table[aria-label="Past runs"] tbody tr')].find((r) =>
          r.textContent?.includes(`BTCUSDT ${name}`),
        );
        const status = row?.querySelectorAll('td')[2]?.textContent?.trim();
        if (status && seen[seen.length - 1] !== status) seen.push(status);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, interval);

    // Downloading (1 to 89 %): the run is really working, not waiting in the server's queue behind another test's run
    const bar = page.getByRole('progressbar', { name: 'Backtest progress' });
    await expect(bar).toHaveAttribute('aria-valuetext', /^Running, ([1-9]|[1-8]\d)%$/, { timeout: 60_000 });
    await expect(form.getByRole('button', { name: 'Running…' })).toBeDisabled();
    const canceled = page.waitForResponse(
      (r) => r.request().method() === 'POST' && /\/api\/v1\/backtests\/[^/]+\/cancel$/.test(r.url()),
    );
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    // The server's answer: stopped during the download
    const { data: atCancel } = (await (await canceled).json()) as {
      data: { status: string; progress: number };
    };
    expect(atCancel.status).toBe('canceled');
    expect(atCancel.progress).toBeLessThan(0.9);

    // What the trader sees: the bar is gone, the run says why it stopped, its row reads Canceled (no percentage)
    await expect(page.getByRole('alert')).toHaveText('Canceled: Canceled by the user');
    await expect(bar).toBeHidden();
    const past = page.getByRole('table', { name: 'Past runs' });
    const canceledRow = past.getByRole('row', { name: `EMA crossover · BTCUSDT ${interval}` });
    await expect(canceledRow.getByText(/^Canceled$/)).toBeVisible();
    await expect(canceledRow.getByRole('checkbox')).toBeDisabled();

    // A new run starts and completes: the server's queue (one run at a time) is free again
    await form.getByLabel('Interval').selectOption('1h');
    await form.getByLabel('Start date').fill(isoDate(today - 3 * DAY_MS));
    await form.getByRole('button', { name: 'Run backtest' }).click();
    await expect.poll(() => page.url()).not.toBe(canceledRunUrl);
    const results = page.getByRole('region', { name: /^Results: EMA crossover · BTCUSDT 1h/ });
    await expect(results).toBeVisible({ timeout: 60_000 });
    await expect(past.getByRole('row', { name: /EMA crossover · BTCUSDT 1h/ })).toContainText('Completed');

    // Long after the cancel, the canceled run has not moved on: still Canceled, and no bar when it is opened again
    await expect(canceledRow.getByText(/^Canceled$/)).toBeVisible();
    await canceledRow.getByRole('button', { name: `View EMA crossover · BTCUSDT ${interval}` }).click();
    await expect(page).toHaveURL(canceledRunUrl);
    await expect(page.getByRole('alert')).toHaveText('Canceled: Canceled by the user');
    await expect(bar).toBeHidden();
    const statuses = await page.evaluate(() => (window as unknown as { rowStatuses: string[] }).rowStatuses);
    expect(statuses.some((text) => /^Running \d+%$/.test(text))).toBe(true);
    // Once canceled, never running again: no late progress push brought the bar or a percentage back
    expect(statuses.slice(statuses.indexOf('Canceled'))).toEqual(['Canceled']);
  });

  test('with the live socket down, the page polls the run through to its results', async ({ page }) => {
    test.setTimeout(120_000);
    // Every live socket the page opens is refused: progress can only come from polling the run
    let socketsRefused = 0;
    await page.routeWebSocket(/\/ws\//, (ws) => {
      socketsRefused++;
      ws.close({ code: 1011, reason: 'refused by the test' });
    });
    await signUp(page);
    await page.goto('/backtesting');
    const form = page.getByRole('form', { name: 'New backtest' });
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    await form.getByLabel('Start date').fill(isoDate(today - 5 * DAY_MS));
    await form.getByLabel('End date').fill(isoDate(today - DAY_MS));
    await form.getByRole('button', { name: 'Run backtest' }).click();

    const results = page.getByRole('region', { name: /^Results: EMA crossover · BTCUSDT 1h/ });
    await expect(results).toBeVisible({ timeout: 60_000 });
    await expect(results.getByRole('term').first()).toHaveText('Total return');
    expect(socketsRefused).toBeGreaterThan(0);
    await expect(
      page.getByRole('table', { name: 'Past runs' }).getByRole('row', { name: /BTCUSDT 1h/ }),
    ).toContainText('Completed');
  });
});
