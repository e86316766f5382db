import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { E2E_API_PORT } from '../support/ports';
import { demoKeys } from '../support/sim';

/** The wallet balance the server reads from the exchange for the signed-in user, as the cards format it */
async function walletBalance(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('kestrel-access-token'));
  const res = await fetch(`http://127.0.0.1:${E2E_API_PORT}/api/futures/account/info`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { totalWalletBalance: string } };
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    Number(body.data.totalWalletBalance),
  );
}

const dashboard = (page: Page) => page.locator('section[data-remote="dashboard"]');

test.describe('the dashboard on live data (simulator)', () => {
  test('account cards, market watch and the candle chart of the connected demo account', async ({ page }) => {
    await signUp(page, { keepConnectModal: true });
    await connectBinance(page, demoKeys());

    // The cards: the demo account's wallet balance as the exchange reports it
    const page$ = dashboard(page);
    const wallet = page$.getByRole('article', { name: 'Wallet balance' });
    await expect(wallet).toContainText(await walletBalance(page));
    await expect(page$.getByRole('article', { name: 'Available margin' })).toContainText(/Margin ratio\s*\d/);

    // The market watch: the watched symbols with prices
    const watch = page$.getByRole('table', { name: 'Market watch' });
    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT']) {
      const row = watch
        .getByRole('row')
        .filter({ has: page.getByRole('button', { name: symbol, exact: true }) });
      await expect(row.getByRole('cell').nth(1)).toHaveText(/^\d{1,3}(,\d{3})*\.\d+$/);
    }

    // The chart: candles drawn on a canvas, no error in its place
    const chart = page$.getByRole('figure', { name: 'BTCUSDT · 1h' });
    await expect(chart.locator('canvas').first()).toBeVisible();
    await expect(chart).toHaveAttribute('data-candles', /^[1-9]\d*$/);
    await expect(page$.getByRole('alert')).toHaveCount(0);

    // Another symbol: the chart's title follows, and the address keeps the choice
    await page$.getByRole('combobox', { name: 'Chart symbol' }).selectOption('ETHUSDT');
    await expect(page$.getByRole('figure', { name: 'ETHUSDT · 1h' })).toHaveAttribute(
      'data-candles',
      /^[1-9]/,
    );
    await expect(page).toHaveURL(/symbol=ETHUSDT/);
    await page$.getByRole('group', { name: 'Chart interval' }).getByRole('button', { name: '15m' }).click();
    await expect(
      page$.getByRole('figure', { name: 'ETHUSDT · 15m' }).locator('canvas').first(),
    ).toBeVisible();
    await expect(page$.getByRole('button', { name: 'ETHUSDT', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  test('without an exchange the chart and market watch work and the cards offer the connect modal', async ({
    page,
  }) => {
    await signUp(page);
    const page$ = dashboard(page);
    await expect(page$.getByRole('figure', { name: 'BTCUSDT · 1h' }).locator('canvas').first()).toBeVisible();
    await expect(page$.getByRole('table', { name: 'Market watch' }).getByRole('row')).toHaveCount(4);
    await expect(page$.getByRole('article', { name: 'Wallet balance' })).toHaveCount(0);
    await page$.getByRole('button', { name: 'Connect exchange' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Connect Exchange' })).toBeVisible();
  });

  test('with the live socket down the page says live data is paused and still shows prices and candles', async ({
    page,
  }) => {
    await page.routeWebSocket(/\/ws\//, (ws) => ws.close({ code: 1011, reason: 'refused by the test' }));
    await signUp(page);
    const page$ = dashboard(page);
    await expect(page$.getByRole('status').filter({ hasText: 'Live data paused' })).toBeVisible();
    await expect(page$.getByRole('figure', { name: 'BTCUSDT · 1h' })).toHaveAttribute(
      'data-candles',
      /^[1-9]/,
    );
    const btc = page$
      .getByRole('table', { name: 'Market watch' })
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'BTCUSDT', exact: true }) });
    await expect(btc.getByRole('cell').nth(1)).toHaveText(/^\d{1,3}(,\d{3})*\.\d+$/);
  });
});
