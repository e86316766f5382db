import { type Browser, expect, type Page, test } from '@playwright/test';
import { signIn, signUp, type TestUser } from '../support/auth';

/** A second browser (its own storage, so its own session) signed in to the same account */
async function secondBrowser(browser: Browser, user: TestUser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  await signIn(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/** Reloading a signed-out browser's page sends it to the landing page */
async function expectSignedOut(page: Page) {
  await page.goto('/account');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
}

test.describe('account (account remote)', () => {
  // Two browsers and several argon2 checks each: more than the suite's default 30 s on a busy machine
  test.describe.configure({ timeout: 90_000 });
  test('changing the password signs the other browser out; the new password signs in', async ({
    page,
    browser,
  }) => {
    const user = await signUp(page);
    const other = await secondBrowser(browser, user);

    await page.goto('/account');
    const account = page.locator('section[data-remote="account"]');
    await expect(account.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')).toHaveCount(2);
    const form = account.getByRole('form', { name: 'Change password' });
    const next = `${user.password} v2`;
    await form.getByLabel('Current password').fill(user.password);
    await form.getByLabel('New password', { exact: true }).fill(next);
    await form.getByLabel('New password again').fill(next);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByRole('status')).toHaveText('Password changed. 1 other session was signed out.');
    await expect(account.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')).toHaveCount(1);
    await expect(account.getByRole('list', { name: 'Account activity' })).toContainText(
      'Password changed; 1 other session signed out',
    );

    await expectSignedOut(other);
    await signIn(other, { ...user, password: next });
    await expect(other).toHaveURL(/\/account$/);
    await other.context().close();
  });

  test('revoking a session signs that browser out', async ({ page, browser }) => {
    const user = await signUp(page);
    const other = await secondBrowser(browser, user);
    await page.goto('/account');
    const sessions = page.getByRole('list', { name: 'Active sessions' });
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    await expect(sessions.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);
    await sessions.getByRole('button', { name: /^Revoke / }).click();
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await expectSignedOut(other);
    await other.context().close();
  });

  test('deleting the account needs the password and DELETE, signs out, and the account cannot sign in', async ({
    page,
  }) => {
    const user = await signUp(page);
    await page.goto('/account');
    const form = page.getByRole('form', { name: 'Delete account' });
    await form.getByLabel('Password').fill(user.password);
    await form.getByLabel('Type DELETE to confirm').fill('delete');
    await form.getByRole('button', { name: 'Delete my account' }).click();
    await expect(form).toContainText('Type DELETE to confirm');
    await expect(page).toHaveURL(/\/account$/);

    await form.getByLabel('Type DELETE to confirm').fill('DELETE');
    await form.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await signIn(page, user);
    await expect(page.getByRole('form', { name: 'Sign in' }).getByRole('alert')).toContainText(
      'Invalid email or password',
    );
  });

  test('settings: mainnet after confirming and back, both in the history, with the spec’s toasts', async ({
    page,
  }) => {
    await signUp(page);
    await page.goto('/settings');
    const env = page.getByRole('region', { name: 'Trading environment' });
    await env.getByRole('button', { name: 'Switch to mainnet' }).click();
    await env.getByRole('button', { name: 'Confirm: switch to mainnet' }).click();
    await expect(page.getByText('Switched to Mainnet', { exact: true })).toBeVisible();
    await expect(env).toContainText('Mainnet · LIVE trading with real money');
    await env.getByRole('button', { name: 'Switch to testnet' }).click();
    await expect(page.getByText('Switched to Testnet', { exact: true })).toBeVisible();
    await expect(env.getByRole('list', { name: 'Environment history' }).getByRole('listitem')).toHaveCount(2);
    // The top bar reads the same state
    await expect(page.getByRole('banner')).toContainText('Simulator');
  });

  test('settings: the theme choice is the top bar’s, applies at once and survives a reload', async ({
    page,
  }) => {
    await signUp(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/settings');
    const theme = page.getByRole('region', { name: 'Theme' });
    await expect(theme.getByRole('radio', { name: /^Light/ })).toBeChecked();
    // A click, then the state the user sees: the radio is the theme store's, which answers a moment later on a
    // loaded machine (Playwright's check() insists on the state right after its click)
    await theme.getByRole('radio', { name: /^Dark/ }).click();
    await expect(theme.getByRole('radio', { name: /^Dark/ })).toBeChecked();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    // The top bar's toggle reads the same state, and changing it there moves the choice here
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Switch to light theme' });
    await expect(toggle).toBeVisible();
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(theme.getByRole('radio', { name: /^Dark/ })).toBeChecked();
    await page.getByRole('banner').getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(theme.getByRole('radio', { name: /^Light/ })).toBeChecked();
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => localStorage.getItem('kestrel-theme'))).toBe('light');
  });
});
