import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { addSimFault, createSimAccount, removeSimFault } from '../support/sim';

const portfolio = (page: Page) => page.getByRole('region', { name: 'Portfolio' });
const ticket = (page: Page) => page.getByRole('form', { name: 'Order ticket' });
const confirmDialog = (page: Page) => page.getByRole('dialog');

test.describe('an order whose answer was lost (order manager)', () => {
  test('shows "status unknown" on /portfolio until the server resolves it, and it is placed once', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const keys = await createSimAccount({ balances: { USDT: '1000' } });
    await signUp(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Portfolio' }).click();
    const region = portfolio(page);
    await expect(region.getByRole('heading', { name: 'No exchange connected' })).toBeVisible();
    await region.getByRole('button', { name: 'Connect exchange' }).click();
    await connectBinance(page, keys);
    await expect(region.getByText('No open orders')).toBeVisible();

    const form = ticket(page);
    await form.getByLabel('Type').selectOption('LIMIT');
    await form.getByLabel(/^Quantity/).fill('0.010');
    await form.getByLabel('Limit price').fill('30000.0');
    await form.getByRole('button', { name: 'Review order' }).click();
    await expect(confirmDialog(page)).toContainText('Buy 0.010 BTCUSDT at 30,000.0');

    // The exchange takes the next order but its answer is lost, and lookups by client order id fail until the
    // second fault goes: the server cannot know whether the order exists. Both only for this test's account: the
    // simulator is shared with the other worker (a kill switch there once waited on this lookup's errors)
    const faults: number[] = [];
    try {
      faults.push(
        await addSimFault({
          kind: 'error',
          method: 'POST',
          path: '/fapi/v1/order',
          phase: 'after',
          status: 503,
          remaining: 1,
          apiKey: keys.apiKey,
        }),
      );
      faults.push(
        await addSimFault({
          kind: 'error',
          method: 'GET',
          path: '/fapi/v1/order',
          status: 500,
          apiKey: keys.apiKey,
        }),
      );
      await confirmDialog(page).getByRole('button', { name: 'Place order' }).click();
      await expect(confirmDialog(page).getByRole('alert')).toContainText('Status unknown');
      await confirmDialog(page).getByRole('button', { name: 'Back' }).click();

      const unknown = region.getByRole('list', { name: 'Orders with status unknown' });
      await expect(unknown).toBeVisible({ timeout: 15_000 });
      await expect(unknown.getByRole('status')).toContainText(
        /^Status unknown: Buy 0\.010 BTCUSDT.*30,000\.0/,
      );
      await expect(unknown).toContainText('will not send it again');
      await page.screenshot({ path: testInfo.outputPath('status-unknown-light.png'), fullPage: true });
      await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
      await page.setViewportSize({ width: 375, height: 900 });
      await expect(unknown).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('status-unknown-dark-375.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
    } finally {
      for (const id of faults) await removeSimFault(id);
    }

    // The exchange answers lookups again: the server finds the order and the notice goes; the order is listed once
    await expect(region.getByRole('list', { name: 'Orders with status unknown' })).toBeHidden({
      timeout: 45_000,
    });
    const orders = region.getByRole('table', { name: 'Open orders' });
    await expect(orders.getByRole('row').filter({ hasText: '30,000.0' })).toHaveCount(1, { timeout: 15_000 });
  });
});
