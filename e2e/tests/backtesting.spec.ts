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
