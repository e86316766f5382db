import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { E2E_API_PORT } from '../support/ports';
import { createSimAccount, releaseSimPrice, SIM_URL, setSimPrice, simIncome } from '../support/sim';

const usdt = (v: number, signed = false) =>
  new Intl.NumberFormat('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: signed ? 'exceptZero' : 'negative',
  }).format(v);

/** A market order through Kestrel's API with the signed-in user's token */
async function marketOrder(page: Page, side: 'BUY' | 'SELL') {
  const token = await page.evaluate(() => localStorage.getItem('kestrel-access-token'));
  const res = await fetch(`http://127.0.0.1:${E2E_API_PORT}/api/futures/orders/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ symbol: 'BTCUSDT', side, type: 'MARKET', quantity: '0.010' }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

const analytics = (page: Page) => page.locator('section[data-remote="dashboard"]');

test.describe('analytics on the recorded history (simulator)', () => {
  test.afterEach(async () => {
    await releaseSimPrice('BTCUSDT');
  });

  test('a round trip shows its realized PnL, fees and day as the simulator booked them', async ({ page }) => {
    test.setTimeout(120_000);
    const keys = await createSimAccount({ balances: { USDT: '1000' } });
    await signUp(page, { keepConnectModal: true });
    await connectBinance(page, keys);

    // Buy at the price of the moment, sell 2 % higher: about +13 USDT on 0.01 BTC, less the fees. The simulator is
    // shared: the price is held only for the two fills, and from where it was (no jump other tests would see)
    const res = await fetch(`${SIM_URL}/fapi/v2/ticker/price?symbol=BTCUSDT`);
    const now = Number(((await res.json()) as { price: string }).price);
    await setSimPrice('BTCUSDT', { price: now.toFixed(1) });
    await marketOrder(page, 'BUY');
    await setSimPrice('BTCUSDT', { price: (now * 1.02).toFixed(1) });
    await marketOrder(page, 'SELL');
    await releaseSimPrice('BTCUSDT');
    const income = await simIncome(keys);
    const sum = (type: string) =>
      income.filter((i) => i.incomeType === type).reduce((s, i) => s + Number(i.income), 0);
    const realized = sum('REALIZED_PNL');
    const net = realized + sum('COMMISSION') + sum('FUNDING_FEE');
    expect(realized).toBeGreaterThan(10);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('button', { name: '7 d' }).click();
    await expect(page).toHaveURL(/range=7d/);
    const page$ = analytics(page);
    const symbolRow = page$
      .getByRole('table', { name: 'Results per symbol' })
      .getByRole('row')
      .filter({ hasText: 'BTCUSDT' });
    // The server imports income older than 15 s when the page reads it; the recorder's own import runs every 5 min
    await expect(async () => {
      await page.reload();
      await expect(symbolRow.getByRole('cell').nth(2)).toHaveText(usdt(realized, true), { timeout: 3_000 });
    }).toPass({ timeout: 60_000, intervals: [2_000] });

    await expect(page$.getByRole('article', { name: 'Net PnL' })).toContainText(`${usdt(net, true)} USDT`);
    await expect(page$.getByRole('article', { name: 'Win rate' })).toContainText('1 of 1 closing fills won');
    await expect(page$.getByRole('article', { name: 'Fees paid' })).toContainText(
      `${usdt(-sum('COMMISSION'))} USDT`,
    );
    const today = new Date().toISOString().slice(0, 10);
    await expect(
      page$
        .getByRole('table', { name: 'Net result per UTC day' })
        .getByLabel(`${today}: ${usdt(net, true)} USDT`),
    ).toBeVisible();
    await expect(
      page$.getByRole('figure', { name: 'Equity and drawdown' }).locator('canvas').first(),
    ).toBeVisible();
    await expect(page$.getByRole('alert')).toHaveCount(0);

    // Both themes: the figures, the calendar and the table pass axe (contrast included)
    await expectAccessible(page, 'section[data-remote="dashboard"]');
    await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
    await expectAccessible(page, 'section[data-remote="dashboard"]');
  });

  test('without an exchange: the empty state offers the connect modal', async ({ page }) => {
    await signUp(page);
    await page.goto('/analytics');
    const page$ = analytics(page);
    await expect(page$.getByRole('heading', { name: 'No exchange connected' })).toBeVisible();
    await page$.getByRole('button', { name: 'Connect exchange' }).click();
    await expect(page.getByRole('dialog', { name: 'Connect Exchange' })).toBeVisible();
  });
});
