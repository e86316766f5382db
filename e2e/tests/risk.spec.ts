import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiAs, signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { createSimAccount } from '../support/sim';

const riskPage = (page: Page) => page.locator('section[data-remote="dashboard"]');
const events = (page: Page): Locator => page.getByRole('list', { name: 'Risk events' });

test('/risk: a max-leverage limit refuses a larger order; the kill switch cancels every order and flattens every position', async ({
  page,
}) => {
  // Three page loads, each reading a day's and an hour's candles for VaR and ATR: more than the default 30 s on a
  // busy machine
  test.setTimeout(90_000);
  const keys = await createSimAccount({ balances: { USDT: '1000' }, permissions: { enableFutures: true } });
  const user = await signUp(page, { keepConnectModal: true });
  await connectBinance(page, keys);
  const api = await apiAs(user);

  await page.goto('/risk');
  await expect(riskPage(page).getByRole('heading', { level: 1, name: 'Risk management' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Margin ratio' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'No exposure yet' })).toBeVisible();

  // The limit, from the page's form
  const form = page.getByRole('form', { name: 'Account limits' });
  await form.getByLabel(/^Max leverage/).fill('2');
  await form.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('Risk limits saved', { exact: true })).toBeVisible();
  await expect(events(page).getByText('Limits changed: max leverage 2×')).toBeVisible();

  // 0.05 BTC at about 65,000 is over 3× of 1,000 USDT: refused by the server, with the figures
  const refused = await api('POST', '/api/futures/orders/create', {
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'MARKET',
    quantity: '0.05',
  });
  expect(refused.status).toBe(422);
  expect(refused.body).toMatchObject({ code: 'RISK_LIMIT' });
  const text = String(refused.body.detail);
  expect(text).toMatch(
    /^Order refused: it would take leverage to [\d.]+×, above your max leverage limit of 2×$/,
  );
  await page.reload();
  await expect(events(page).getByText(text, { exact: true })).toBeVisible();

  // Within the limit: a position and a resting order (the answer's text shows if the exchange refuses one)
  const place = async (order: object) =>
    expect(
      (await api('POST', '/api/futures/orders/create', { symbol: 'BTCUSDT', ...order })).body,
    ).toMatchObject({
      success: true,
    });
  await place({ side: 'BUY', type: 'MARKET', quantity: '0.005' });
  const ticker = await api('GET', '/api/v1/market/ticker/BTCUSDT');
  const price = Number((ticker.body.data as { lastPrice: string }).lastPrice);
  // Over the 100 USDT minimum notional at 80 % of the price
  await place({
    side: 'BUY',
    type: 'LIMIT',
    quantity: '0.003',
    price: (Math.floor(price * 0.8 * 10) / 10).toFixed(1),
    timeInForce: 'GTC',
  });

  await page.reload();
  const table = page.getByRole('table', { name: 'Positions at risk' });
  await expect(table.getByRole('cell', { name: 'BTCUSDT', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Kill switch' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop all trading?' });
  await expect(
    dialog.getByText('Cancel 1 order and close 1 position at market.', { exact: true }),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel orders and close positions' }).click();
  await expect(
    page.getByText('Canceled 1 of 1 order, closed 1 of 1 position', { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'No exposure yet' })).toBeVisible();
  await expect(
    events(page).getByText('Kill switch: canceled 1 of 1 orders, closed 1 of 1 positions'),
  ).toBeVisible();

  // The exchange's own answer: nothing open, nothing held
  expect((await api('GET', '/api/futures/orders/active')).body.data).toEqual([]);
  expect((await api('GET', '/api/futures/positions/active')).body.data).toEqual([]);
});
