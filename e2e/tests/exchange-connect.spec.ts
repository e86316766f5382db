import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { createSimAccount, demoKeys, type SimKeys } from '../support/sim';

const connectModal = (page: Page) => page.getByRole('dialog', { name: 'Connect Exchange' });
const binanceCard = (scope: Page | Locator) => scope.getByRole('article', { name: 'Binance' });
const topBarStatus = (page: Page) => page.getByRole('banner').getByRole('status');

async function submitKeys(dialog: Locator, keys: SimKeys) {
  const form = dialog.getByRole('form', { name: 'Connect Binance Exchange' });
  await form.getByLabel('API Key').fill(keys.apiKey);
  await form.getByLabel('Secret Key').fill(keys.secretKey);
  await form.getByRole('button', { name: 'Connect Exchange' }).click();
}

/** Every value the page keeps in localStorage and sessionStorage, base64 values also decoded */
async function browserStorageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const texts: string[] = [];
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i++) {
        const value = storage.getItem(storage.key(i) ?? '') ?? '';
        texts.push(value);
        try {
          texts.push(new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0))));
        } catch {
          // not base64
        }
      }
    }
    return texts.join('\n');
  });
}

test.describe('connecting an exchange (exchange-connect remote in the shell and settings)', () => {
  test('a new user connects the demo keys through the auto-opened modal, then disconnects in settings', async ({
    page,
  }) => {
    const keys = demoKeys();
    await signUp(page, { keepConnectModal: true });
    const modal = connectModal(page);
    await expect(modal).toBeVisible();
    await expect(binanceCard(modal).getByText('Available', { exact: true })).toBeVisible();
    await binanceCard(modal).getByRole('button', { name: 'Connect Exchange' }).click();
    await expect(modal.getByText('Enter your API credentials', { exact: true })).toBeVisible();

    // The whitelist note names this deployment's host; the form is accessible (axe, WCAG A/AA)
    await expect(modal).toContainText('127.0.0.1');
    const audit = await new AxeBuilder({ page })
      .include('[role="dialog"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(
      audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);

    await submitKeys(modal, keys);
    await expect(page.getByText('Successfully connected to Binance', { exact: true })).toBeVisible();
    await expect(modal).toBeHidden(); // 1.5 s after the success
    await expect(topBarStatus(page)).toContainText('Connected');

    // The secret went to the server only
    const stored = await browserStorageText(page);
    expect(stored).toContain('"status":"connected"');
    expect(stored).not.toContain(keys.secretKey);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    const card = binanceCard(page);
    await expect(card.getByText('Active', { exact: true })).toBeVisible();
    await expect(card.getByText(/^Last connected:/)).toBeVisible();
    // The server tries the stored keys against the simulator again
    await card.getByRole('button', { name: 'Check Connection' }).click();
    await expect(card.getByRole('status')).toHaveText('Binance connectivity OK');
    await card.getByRole('button', { name: 'Disconnect' }).click();
    await expect(card.getByText('Available', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Connect Exchange' })).toBeEnabled();
    await expect(topBarStatus(page)).toContainText('Disconnected');

    // The server no longer holds the keys: after a reload (which asks the server) the card stays Available
    await page.reload();
    await expect(binanceCard(page).getByText('Available', { exact: true })).toBeVisible();
    await expect(topBarStatus(page)).toContainText('Disconnected');
  });

  test('a wrong secret ends on the Binance card with the reason', async ({ page }) => {
    const keys = demoKeys();
    await signUp(page, { keepConnectModal: true });
    const modal = connectModal(page);
    await binanceCard(modal).getByRole('button', { name: 'Connect Exchange' }).click();
    await submitKeys(modal, { apiKey: keys.apiKey, secretKey: 'f'.repeat(64) });

    await expect(page.getByText('Binance Connectivity Failed', { exact: true })).toBeVisible();
    const error = binanceCard(modal).getByRole('alert');
    await expect(error).toContainText('Connection Error');
    await expect(error).toContainText('the secret key does not match the API key');
    await expect(binanceCard(modal).getByText('Available', { exact: true })).toBeVisible();
    await expect(topBarStatus(page)).toContainText('Error');
    expect(await browserStorageText(page)).not.toContain('f'.repeat(64));

    // Escape closes the topmost layer first: the failure toast while it is up (Radix layers), then the modal
    await expect(async () => {
      await page.keyboard.press('Escape');
      await expect(modal).toBeHidden({ timeout: 1000 });
    }).toPass();
  });

  test('from settings, a key that can withdraw is refused with the reason on the card', async ({ page }) => {
    const keys = await createSimAccount({
      balances: { USDT: '100' },
      permissions: { enableWithdrawals: true },
    });
    await signUp(page);
    await page.goto('/settings');
    await binanceCard(page).getByRole('button', { name: 'Connect Exchange' }).click();
    const modal = connectModal(page);
    await expect(modal.getByRole('form', { name: 'Connect Binance Exchange' })).toBeVisible();
    await submitKeys(modal, keys);
    await expect(binanceCard(modal).getByRole('alert')).toContainText('this API key can withdraw funds');
    // The settings page's own card shows it too: both read the one shared runtime
    await page.keyboard.press('Escape');
    await expect(binanceCard(page).getByRole('alert')).toContainText('this API key can withdraw funds');
  });
});
