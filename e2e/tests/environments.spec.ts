import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { E2E_SIM_PORT } from '../support/ports';
import { adminHeaders, createSimAccount, SIM_URL, type SimKeys, simSignedGet } from '../support/sim';

/** The mainnet stand-in: `scripts/start.mjs` runs it on the simulator port + 1 (KESTREL_MAINNET_SIMULATOR=1) */
const MAINNET_SIM = `http://127.0.0.1:${E2E_SIM_PORT + 1}`;
const TESTNET_SIM = SIM_URL;

async function mainnetAccount(usdt: string): Promise<SimKeys> {
  const res = await fetch(`${MAINNET_SIM}/_sim/accounts`, {
    method: 'POST',
    // Both simulators take the admin token start gave them (one token, in the data folder)
    headers: adminHeaders(),
    body: JSON.stringify({ balances: { USDT: usdt } }),
  });
  if (res.status !== 201) throw new Error(`the mainnet stand-in refused an account: ${res.status}`);
  return (await res.json()) as SimKeys;
}

/** A simulator's own record: the account's open orders, asked with its keys as Binance is asked */
function openOrders(base: string, keys: SimKeys): Promise<Array<{ clientOrderId: string; price: string }>> {
  return simSignedGet(keys, '/fapi/v1/openOrders', { recvWindow: '10000' }, base);
}

/** Every API key a simulator was ever sent (`GET /_sim/api-keys-seen`) */
async function keysSeen(base: string): Promise<string[]> {
  return (
    (await (await fetch(`${base}/_sim/api-keys-seen`, { headers: adminHeaders() })).json()) as {
      apiKeys: string[];
    }
  ).apiKeys;
}

const bar = (page: Page) => page.getByTestId('top-bar');
const portfolio = (page: Page) => page.getByRole('region', { name: 'Portfolio' });

test.describe('trading environment: the switch chooses the server’s exchange (issue 23)', () => {
  test('switching moves /dashboard, /portfolio and /history between the two accounts; the badge always names where orders go', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const testnetKeys = await createSimAccount({ balances: { USDT: '1234' } });
    const mainnetKeys = await mainnetAccount('98765');
    await signUp(page);
    await expect(bar(page).getByText('Simulator', { exact: true })).toBeVisible();

    // Testnet (the simulator): connect and read the 1,234 USDT account
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Portfolio' }).click();
    await portfolio(page).getByRole('button', { name: 'Connect exchange' }).click();
    await connectBinance(page, testnetKeys);
    await expect(portfolio(page)).toContainText('1,234.00');

    // Go LIVE: confirm (the password was given at sign-up, less than 5 minutes ago)
    await bar(page).getByRole('button', { name: 'Switch to mainnet' }).click();
    await page
      .getByRole('dialog', { name: 'Switch to LIVE trading?' })
      .getByRole('button', { name: 'Switch to mainnet' })
      .click();
    await expect(bar(page).getByText('LIVE mainnet', { exact: true })).toBeVisible();
    // Mainnet has its own key: none yet, so the page asks for one instead of showing the testnet account
    await expect(portfolio(page)).not.toContainText('1,234.00');
    await portfolio(page).getByRole('button', { name: 'Connect exchange' }).click();
    await connectBinance(page, mainnetKeys);
    await expect(portfolio(page)).toContainText('98,765.00');

    // An order placed under the red badge lands on the mainnet host, and only there
    const ticket = page.getByRole('form', { name: 'Order ticket' });
    await ticket.getByLabel('Type').selectOption('LIMIT');
    await ticket.getByLabel(/^Quantity/).fill('0.010');
    await ticket.getByLabel('Limit price').fill('31234.0');
    await ticket.getByRole('button', { name: 'Review order' }).click();
    await expect(bar(page).getByText('LIVE mainnet', { exact: true })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Place order' }).click();
    await expect(portfolio(page).getByRole('table', { name: 'Open orders' })).toContainText('31,234.0');
    expect((await openOrders(MAINNET_SIM, mainnetKeys)).map((o) => Number(o.price))).toEqual([31234]);
    expect(await openOrders(TESTNET_SIM, testnetKeys)).toEqual([]);

    // /history holds the mainnet account's order (the recorder imports each environment with its own key)
    await page.goto('/history');
    const history = page.getByRole('region', { name: 'Trading history' });
    await history.getByRole('tab', { name: 'Orders' }).click();
    const orders = history.getByRole('table', { name: 'Orders' });
    // A read imports what is new once the last import is 10 s old: reload until the recorder has the order
    await expect(async () => {
      await page.reload();
      await history.getByRole('tab', { name: 'Orders' }).click();
      await expect(orders.getByRole('row').filter({ hasText: '31,234' }).first()).toBeVisible({
        timeout: 3_000,
      });
    }).toPass({ timeout: 45_000, intervals: [2_000, 5_000] });

    // The dashboard reads the same (mainnet) account
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('article', { name: 'Wallet balance' })).toContainText('98,765.00');

    // Back to testnet: the simulator's account again, on both pages, and the mainnet order stays where it is
    await bar(page).getByRole('button', { name: 'Switch to testnet' }).click();
    await expect(bar(page).getByText('Simulator', { exact: true })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Wallet balance' })).toContainText('1,234.00');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Portfolio' }).click();
    await expect(portfolio(page)).toContainText('1,234.00');
    await expect(portfolio(page).getByText('No open orders')).toBeVisible();
    expect(await openOrders(MAINNET_SIM, mainnetKeys)).toHaveLength(1);

    // /history shows the testnet account's records only: the mainnet order is not among them
    await page.goto('/history');
    await history.getByRole('tab', { name: 'Orders' }).click();
    await expect(history.getByRole('heading', { name: 'No orders in this range' })).toBeVisible();

    // No key ever went to the other environment's host (each simulator's own record)
    expect(await keysSeen(TESTNET_SIM)).not.toContain(mainnetKeys.apiKey);
    expect(await keysSeen(MAINNET_SIM)).not.toContain(testnetKeys.apiKey);
  });
});
