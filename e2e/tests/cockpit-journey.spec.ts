import { expect, type Locator, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { createSimAccount, releaseSimPrice, setSimPrice, simIncome } from '../support/sim';

// The trader's cockpit end to end (issue 16's proof), one user on the five pages of the dashboard remote against the
// real server and the simulator: an order placed on /portfolio fills when the simulator's price moves through it,
// then the position shows on the /dashboard chart, the fill in /history, a risk limit refuses a larger order, the
// kill switch flattens the account and /analytics books the round trip's PnL.
//
// SOLUSDT, not BTCUSDT: the simulator is shared by the whole run and other specs hold BTCUSDT's price.
const SYMBOL = 'SOLUSDT';

const region = (page: Page) => page.locator('section[data-remote="dashboard"]');
const ticket = (page: Page) => page.getByRole('form', { name: 'Order ticket' });
const confirmDialog = (page: Page) => page.getByRole('dialog');
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

async function review(page: Page, order: { type: string; quantity: string; price?: string }) {
  const form = ticket(page);
  await form.getByLabel('Symbol').fill(SYMBOL);
  // The symbol's rules load on blur; the quantity's label names the base asset once they are in
  await form.getByLabel('Symbol').blur();
  await expect(form.getByLabel('Quantity (SOL)')).toBeVisible();
  await form.getByLabel('Type').selectOption(order.type);
  await form.getByLabel(/^Quantity/).fill(order.quantity);
  if (order.price) await form.getByLabel('Limit price').fill(order.price);
  await form.getByRole('button', { name: 'Review order' }).click();
}

const usdt = (v: number) =>
  new Intl.NumberFormat('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'exceptZero',
  }).format(v);

/**
 * The history and analytics read what the server imported from the exchange; a read imports what is new once the
 * last import is some seconds old, so the page is reloaded until the expected row shows (no fixed wait)
 */
async function reloadUntilVisible(page: Page, target: Locator, timeout = 60_000) {
  await expect(async () => {
    await page.reload();
    await expect(target).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout, intervals: [1_000, 2_000, 5_000] });
}

test.afterEach(async () => {
  await releaseSimPrice(SYMBOL);
});

test('cockpit journey: order on /portfolio fills, shows on the chart, in /history and /analytics; a risk limit refuses; the kill switch flattens', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // An account of the test's own (the demo account is shared by every spec of the run), at a price it holds
  const keys = await createSimAccount({ balances: { USDT: '1000' } });
  await setSimPrice(SYMBOL, { price: '150.00' });
  await signUp(page, { keepConnectModal: true });
  await connectBinance(page, keys);

  // 1. /portfolio: a limit buy under the price (it rests) and a second far under it (for the kill switch)
  await nav(page, 'Portfolio');
  const portfolio = page.getByRole('region', { name: 'Portfolio' });
  await expect(portfolio.getByText('No open positions')).toBeVisible();
  await review(page, { type: 'LIMIT', quantity: '10', price: '148.00' });
  await expect(confirmDialog(page)).toContainText('Buy 10 SOLUSDT at 148.00, limit, good till canceled');
  await confirmDialog(page).getByRole('button', { name: 'Place order' }).click();
  await expect(confirmDialog(page)).toBeHidden();
  const orders = portfolio.getByRole('table', { name: 'Open orders' });
  await expect(orders.getByRole('row').filter({ hasText: '148.00' })).toContainText('0 / 10');
  await review(page, { type: 'LIMIT', quantity: '1', price: '120.00' });
  await confirmDialog(page).getByRole('button', { name: 'Place order' }).click();
  await expect(confirmDialog(page)).toBeHidden();
  await expect(orders.getByRole('row').filter({ hasText: '120.00' })).toHaveCount(1);

  // 2. The simulator's price moves through 148: the order fills as maker, the page hears it on the socket
  await setSimPrice(SYMBOL, { price: '147.50' });
  const position = portfolio
    .getByRole('table', { name: 'Positions' })
    .getByRole('row')
    .filter({ hasText: SYMBOL });
  await expect(position.getByRole('cell').nth(0)).toHaveText(`${SYMBOL}Long`);
  await expect(position.getByRole('cell').nth(1)).toHaveText('10 SOL');
  await expect(orders.getByRole('row').filter({ hasText: '148.00' })).toHaveCount(0);

  // 3. /dashboard: the chart of the symbol draws the position's entry and liquidation lines, the resting order and
  //    the fill (the figure's description lists what the canvas draws)
  await nav(page, 'Dashboard');
  await region(page).getByRole('combobox', { name: 'Chart symbol' }).selectOption(SYMBOL);
  const chart = region(page).getByRole('figure', { name: `${SYMBOL} · 1h` });
  await expect(chart).toHaveAttribute('data-candles', /^[1-9]\d*$/);
  await expect(chart).toHaveAccessibleDescription(
    /lines: Long 10 at 148\.00, Liq\. at \d+\.\d{2}, Limit buy 1 at 120\.00/,
  );
  await expect(chart).toHaveAccessibleDescription(/1 of your fills marked \(bought 10\)/);

  // 4. /history: the fill, as the exchange booked it
  await nav(page, 'Trading history');
  const history = page.getByRole('region', { name: 'Trading history' });
  const trades = history.getByRole('table', { name: 'Trades' });
  const buy = trades.getByRole('row').filter({ hasText: SYMBOL }).filter({ hasText: 'Buy' });
  await reloadUntilVisible(page, buy);
  await expect(buy).toContainText('148.00');
  await expect(buy).toContainText('10');

  // 5. /risk: a max-leverage limit of 2×, then on /portfolio a market buy that would take the account over it is
  //    refused by the server with its reason, and nothing changes
  await nav(page, 'Risk management');
  const limits = page.getByRole('form', { name: 'Account limits' });
  await limits.getByLabel(/^Max leverage/).fill('2');
  await limits.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('Risk limits saved', { exact: true })).toBeVisible();
  await nav(page, 'Portfolio');
  await expect(position.getByRole('cell').nth(1)).toHaveText('10 SOL');
  await review(page, { type: 'MARKET', quantity: '20' });
  await expect(confirmDialog(page)).toContainText('Buy 20 SOLUSDT at market');
  await confirmDialog(page).getByRole('button', { name: 'Place order' }).click();
  await expect(confirmDialog(page).getByRole('alert')).toHaveText(
    /^Your Kestrel account limit refused it, nothing was sent to Binance: Order refused: it would take leverage to [\d.]+×, above your max leverage limit of 2×$/,
  );
  await confirmDialog(page).getByRole('button', { name: 'Back' }).click();
  await expect(position.getByRole('cell').nth(1)).toHaveText('10 SOL');
  await expect(orders.getByRole('row').filter({ hasText: '120.00' })).toHaveCount(1);

  // 6. The price rises to 151; the kill switch (confirmed) cancels the order and closes the position at market
  await setSimPrice(SYMBOL, { price: '151.00' });
  await nav(page, 'Risk management');
  await expect(
    page.getByRole('table', { name: 'Positions at risk' }).getByRole('cell', { name: SYMBOL, exact: true }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Kill switch' }).click();
  const kill = page.getByRole('dialog', { name: 'Stop all trading?' });
  await expect(
    kill.getByText('Cancel 1 order and close 1 position at market.', { exact: true }),
  ).toBeVisible();
  await kill.getByRole('button', { name: 'Cancel orders and close positions' }).click();
  await expect(
    page.getByText('Canceled 1 of 1 order, closed 1 of 1 position', { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'No exposure yet' })).toBeVisible();
  await nav(page, 'Portfolio');
  await expect(portfolio.getByText('No open positions')).toBeVisible();
  await expect(portfolio.getByText('No open orders')).toBeVisible();

  // 7. /analytics: the round trip's realized PnL as the simulator booked it (10 × (151 − 148) before fees)
  const income = await simIncome(keys);
  const sum = (type: string) =>
    income.filter((i) => i.incomeType === type).reduce((s, i) => s + Number(i.income), 0);
  const realized = sum('REALIZED_PNL');
  expect(realized).toBeCloseTo(30, 6);
  await nav(page, 'Analytics');
  await page.getByRole('button', { name: '7 d' }).click();
  const symbolRow = region(page)
    .getByRole('table', { name: 'Results per symbol' })
    .getByRole('row')
    .filter({ hasText: SYMBOL });
  await reloadUntilVisible(
    page,
    symbolRow.getByRole('cell').nth(2).getByText(usdt(realized), { exact: true }),
  );
  const net = realized + sum('COMMISSION') + sum('FUNDING_FEE');
  await expect(region(page).getByRole('article', { name: 'Net PnL' })).toContainText(`${usdt(net)} USDT`);
  await expect(region(page).getByRole('article', { name: 'Win rate' })).toContainText(
    '1 of 1 closing fills won',
  );
});
