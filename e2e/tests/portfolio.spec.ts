import { expect, type Locator, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { createSimAccount, type SimKeys, simSignedGet } from '../support/sim';

const portfolio = (page: Page) => page.getByRole('region', { name: 'Portfolio' });
const ticket = (page: Page) => page.getByRole('form', { name: 'Order ticket' });
const confirmDialog = (page: Page) => page.getByRole('dialog');

/** Connects the keys from the page's own empty state: its button opens the exchange-connect remote's modal */
async function connectFromEmptyState(page: Page, keys: SimKeys) {
  await expect(portfolio(page).getByRole('heading', { name: 'No exchange connected' })).toBeVisible();
  await portfolio(page).getByRole('button', { name: 'Connect exchange' }).click();
  await connectBinance(page, keys);
}

async function review(form: Locator, order: { type: string; quantity: string; price?: string }) {
  await form.getByLabel('Type').selectOption(order.type);
  await form.getByLabel(/^Quantity/).fill(order.quantity);
  if (order.price) await form.getByLabel('Limit price').fill(order.price);
  await form.getByRole('button', { name: 'Review order' }).click();
}

test.describe('portfolio page (dashboard remote)', () => {
  test('places and cancels a limit order, opens and closes a position, and shows a refusal in the exchange’s words', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const keys = await createSimAccount({ balances: { USDT: '100' } });
    await signUp(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Portfolio' }).click();
    await connectFromEmptyState(page, keys);

    const region = portfolio(page);
    await expect(region.getByText('Margin balance', { exact: true })).toBeVisible();
    const positions = region.getByRole('table', { name: 'Positions' });
    await expect(region.getByText('No open positions')).toBeVisible();
    await expect(region.getByText('No open orders')).toBeVisible();

    // A limit buy far under the price: confirmed in a sentence, then listed among open orders
    await review(ticket(page), { type: 'LIMIT', quantity: '0.010', price: '30000.0' });
    await expect(confirmDialog(page)).toContainText(
      'Buy 0.010 BTCUSDT at 30,000.0, limit, good till canceled',
    );
    await confirmDialog(page).getByRole('button', { name: 'Place order' }).click();
    await expect(confirmDialog(page)).toBeHidden();
    const orders = region.getByRole('table', { name: 'Open orders' });
    const order = orders.getByRole('row').filter({ hasText: '30,000.0' });
    await expect(order).toHaveCount(1);
    await expect(order).toContainText('0.000 / 0.010');

    await order.getByRole('button', { name: /^Cancel buy limit BTCUSDT order \d+$/ }).click();
    await expect(confirmDialog(page)).toContainText(
      'Cancel the buy limit order for 0.010 BTCUSDT at 30,000.0',
    );
    await confirmDialog(page).getByRole('button', { name: 'Cancel order' }).click();
    await expect(region.getByText('No open orders')).toBeVisible();

    // Below the minimum notional (0.001 BTC ≈ 65 USDT < 100): the exchange's reason, and nothing else changes
    await review(ticket(page), { type: 'MARKET', quantity: '0.001' });
    await confirmDialog(page).getByRole('button', { name: 'Place order' }).click();
    await expect(confirmDialog(page).getByRole('alert')).toHaveText(
      /^Binance refused it: .*notional must be no smaller than 100/,
    );
    await confirmDialog(page).getByRole('button', { name: 'Back' }).click();
    await expect(ticket(page).getByRole('alert')).toContainText('notional must be no smaller than 100');
    await expect(region.getByText('No open positions')).toBeVisible();

    // A small market buy: the position appears with a liquidation price in the symbol's precision
    await review(ticket(page), { type: 'MARKET', quantity: '0.002' });
    await expect(confirmDialog(page)).toContainText('Buy 0.002 BTCUSDT at market');
    await confirmDialog(page).getByRole('button', { name: 'Place order' }).click();
    const position = positions.getByRole('row').filter({ hasText: 'BTCUSDT' });
    await expect(position).toHaveCount(1);
    await expect(position.getByRole('cell').nth(0)).toHaveText('BTCUSDTLong');
    await expect(position.getByRole('cell').nth(1)).toHaveText('0.002 BTC');
    await expect(position.getByRole('cell').nth(4)).toHaveText(/^\d{1,3}(,\d{3})*\.\d$/);

    await position.getByRole('button', { name: 'Market close BTCUSDT long' }).click();
    await expect(confirmDialog(page)).toContainText('Close 0.002 BTCUSDT long at market, reduce-only');
    await confirmDialog(page).getByRole('button', { name: 'Close position' }).click();
    await expect(region.getByText('No open positions')).toBeVisible();
  });

  test('a position’s take-profit and stop-loss land on the exchange, move there, and a part of it closes', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const keys = await createSimAccount({ balances: { USDT: '2000' } });
    await signUp(page);
    await page.goto('/portfolio');
    await connectFromEmptyState(page, keys);
    const region = portfolio(page);
    await review(ticket(page), { type: 'MARKET', quantity: '0.004' });
    await confirmDialog(page).getByRole('button', { name: 'Place order' }).click();
    const positions = region.getByRole('table', { name: 'Positions' });
    const row = positions.getByRole('row').filter({ hasText: 'BTCUSDT' });
    await expect(row).toHaveCount(1);
    const mark = Number((await row.getByRole('cell').nth(3).textContent())?.replace(/,/g, ''));
    const tick = (v: number) => (Math.round(v * 10) / 10).toFixed(1);

    /** The simulator's own record: the account's waiting close-position orders, type → trigger */
    const onExchange = async () =>
      Object.fromEntries(
        (
          await simSignedGet<Array<{ orderType: string; triggerPrice: string; closePosition: boolean }>>(
            keys,
            '/fapi/v1/openAlgoOrders',
            { symbol: 'BTCUSDT' },
          )
        )
          .filter((o) => o.closePosition)
          .map((o) => [o.orderType, Number(o.triggerPrice).toFixed(1)]),
      );

    const protection = row.getByRole('button', { name: /^Take-profit and stop-loss of BTCUSDT long/ });
    await protection.click();
    await confirmDialog(page)
      .getByLabel(/^Take-profit/)
      .fill(tick(mark * 1.2));
    await confirmDialog(page)
      .getByLabel(/^Stop-loss/)
      .fill(tick(mark * 0.8));
    await confirmDialog(page).getByRole('button', { name: 'Save TP/SL' }).click();
    await expect(confirmDialog(page)).toBeHidden();
    await expect
      .poll(onExchange)
      .toEqual({ TAKE_PROFIT_MARKET: tick(mark * 1.2), STOP_MARKET: tick(mark * 0.8) });
    await expect(protection).toHaveText(/^TP [\d,.]+ \/ SL [\d,.]+$/);

    // The stop moved up: the exchange holds the new one only
    await protection.click();
    await confirmDialog(page)
      .getByLabel(/^Stop-loss/)
      .fill(tick(mark * 0.9));
    await expect(confirmDialog(page)).toContainText('stop-loss moved to');
    await confirmDialog(page).getByRole('button', { name: 'Save TP/SL' }).click();
    await expect(confirmDialog(page)).toBeHidden();
    await expect
      .poll(onExchange)
      .toEqual({ TAKE_PROFIT_MARKET: tick(mark * 1.2), STOP_MARKET: tick(mark * 0.9) });

    // A trailing stop 1.5 % behind the best mark: a reduce-only trailing order of the position's size
    await protection.click();
    await confirmDialog(page)
      .getByLabel(/^Trailing stop/)
      .fill('1.5');
    await expect(confirmDialog(page)).toContainText('trailing stop 1.5 % behind the best mark price');
    await confirmDialog(page).getByRole('button', { name: 'Save TP/SL' }).click();
    await expect(confirmDialog(page)).toBeHidden();
    await expect
      .poll(async () =>
        (
          await simSignedGet<Array<{ orderType: string; reduceOnly: boolean; quantity: string }>>(
            keys,
            '/fapi/v1/openAlgoOrders',
            { symbol: 'BTCUSDT' },
          )
        )
          .filter((o) => o.orderType === 'TRAILING_STOP_MARKET')
          .map((o) => [o.reduceOnly, o.quantity]),
      )
      .toEqual([[true, '0.004']]);
    // Binance's order lists leave out a trailing stop's rate; the server's record of the order has it
    await expect(protection).toHaveText(/ \/ Trail 1\.5%$/);

    // A quarter of it closes at market: 0.001 of 0.004
    await row.getByRole('button', { name: 'Market close BTCUSDT long' }).click();
    await confirmDialog(page).getByLabel('Part of the position').selectOption('25');
    await expect(confirmDialog(page)).toContainText(
      'Close 0.001 of 0.004 BTCUSDT long at market, reduce-only',
    );
    await confirmDialog(page).getByRole('button', { name: 'Close position' }).click();
    await expect(row.getByRole('cell').nth(1)).toContainText('0.003');
    const [position] = await simSignedGet<Array<{ positionAmt: string }>>(keys, '/fapi/v3/positionRisk', {
      symbol: 'BTCUSDT',
    });
    expect(position?.positionAmt).toBe('0.003');
  });
});
