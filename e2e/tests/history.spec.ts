import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { E2E_API_PORT } from '../support/ports';
import { createSimAccount } from '../support/sim';

const API = `http://127.0.0.1:${E2E_API_PORT}`;

/** The signed-in page's access token (the runtime keeps it in localStorage) */
const accessToken = (page: Page) => page.evaluate(() => localStorage.getItem('kestrel-access-token') ?? '');

test.describe('trading history (dashboard remote, the recorder’s import)', () => {
  test('a market order’s fill appears in Trades, filters by symbol and exports as CSV', async ({ page }) => {
    test.setTimeout(90_000);
    const keys = await createSimAccount({ balances: { USDT: '10000' } });
    await signUp(page, { keepConnectModal: true });
    await connectBinance(page, keys);

    // A market order through the API, as /portfolio would place it
    const placed = await fetch(`${API}/api/futures/orders/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessToken(page)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.002' }),
    });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const order = ((await placed.json()) as { data: { orderId: string } }).data;

    await page.goto('/history');
    const region = page.getByRole('region', { name: 'Trading history' });
    const trades = region.getByRole('table', { name: 'Trades' });
    // A read imports what is new once the last import is 10 s old: reload until the recorder has the fill
    await expect(async () => {
      await page.reload();
      await expect(trades.getByRole('row').filter({ hasText: 'BTCUSDT' }).first()).toBeVisible({
        timeout: 3_000,
      });
    }).toPass({ timeout: 45_000, intervals: [2_000, 5_000] });
    await expect(region.getByText(/^1 trade, fees /)).toBeVisible();
    // Accessible in both themes (axe, WCAG A/AA)
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => localStorage.setItem('kestrel-theme', t), theme);
      await page.reload();
      await expect(trades).toBeVisible();
      const audit = await new AxeBuilder({ page })
        .include('section[data-remote="dashboard"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      expect(
        audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
        theme,
      ).toEqual([]);
    }
    const row = trades.getByRole('row').filter({ hasText: 'BTCUSDT' }).first();
    await expect(row).toContainText('Buy');
    await expect(row).toContainText('0.002');
    // Placed through Kestrel by the trader: said so, not left to guess
    await expect(row.getByRole('cell').last()).toHaveText('You');

    // The order is listed too, filled
    await region.getByRole('tab', { name: 'Orders' }).click();
    const orders = region.getByRole('table', { name: 'Orders' });
    await expect(orders.getByRole('row').filter({ hasText: 'BTCUSDT' })).toContainText('Filled');

    // Filtered by another symbol: nothing; by BTCUSDT: the fill again
    await region.getByRole('tab', { name: 'Trades' }).click();
    const symbol = region.getByLabel('Symbol', { exact: true });
    await expect(symbol.locator('option', { hasText: 'BTCUSDT' })).toHaveCount(1);
    await symbol.selectOption('BTCUSDT');
    await expect(trades.getByRole('row').filter({ hasText: 'BTCUSDT' })).toHaveCount(1);
    await region.getByLabel('Side', { exact: true }).selectOption('SELL');
    await expect(region.getByRole('heading', { name: 'No trades in this range' })).toBeVisible();
    await region.getByLabel('Side', { exact: true }).selectOption('');

    // The export is the server's CSV of what is filtered
    const download = page.waitForEvent('download');
    await region.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^kestrel-trades-\d{8}-\d{8}\.csv$/);
    const lines = (await readFile(await file.path(), 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]?.split(',').slice(0, 3)).toEqual(['time', 'symbol', 'side']);
    expect(lines).toHaveLength(2);
    const fields = lines[1]?.split(',') ?? [];
    expect(fields.slice(1, 3)).toEqual(['BTCUSDT', 'BUY']);
    expect(fields.slice(-2)).toEqual([order.orderId, 'you']);

    // Live: a fill made while the page is open appears without a reload (the order notice refetches the history)
    const again = await fetch(`${API}/api/futures/orders/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessToken(page)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.002' }),
    });
    expect(again.status, await again.clone().text()).toBe(201);
    await expect(region.getByText(/^2 trades, fees /)).toBeVisible({ timeout: 20_000 });
    await expect(trades.getByRole('row').filter({ hasText: 'Sell' })).toHaveCount(1);
  });

  test('without an exchange the page offers to connect one', async ({ page }) => {
    await signUp(page);
    await page.goto('/history');
    const region = page.getByRole('region', { name: 'Trading history' });
    await expect(region.getByRole('heading', { name: 'No exchange connected' })).toBeVisible();
    await region.getByRole('button', { name: 'Connect exchange' }).click();
    await expect(page.getByRole('dialog', { name: 'Connect Exchange' })).toBeVisible();
  });
});
