import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

export type TestUser = { name: string; email: string; password: string };

export function newUser(): TestUser {
  const id = randomUUID().slice(0, 8);
  return { name: `Trader ${id}`, email: `trader-${id}@example.com`, password: `long passphrase ${id}` };
}

/**
 * Creates an account through the landing page's form against the real server; ends on the dashboard. Unless
 * `keepConnectModal`, waits for the connect-exchange modal that opens 1 s later and skips it, so it cannot cover
 * what the test clicks next.
 */
export async function signUp(
  page: Page,
  { user = newUser(), keepConnectModal = false }: { user?: TestUser; keepConnectModal?: boolean } = {},
): Promise<TestUser> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Create an account' }).click();
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('Name').fill(user.name);
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password').fill(user.password);
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  if (!keepConnectModal) {
    const modal = page.getByRole('dialog', { name: 'Connect Exchange' });
    await modal.getByRole('button', { name: 'Skip for Now' }).click();
    await expect(modal).toBeHidden();
  }
  return user;
}

export async function signIn(page: Page, user: TestUser): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password').fill(user.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}
