import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { E2E_API_PORT } from './ports';

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

const API = `http://127.0.0.1:${E2E_API_PORT}`;

/**
 * The user's API, signed in anew, for what a spec does that the page under test does not offer (orders live on
 * /portfolio): `call(method, path, body?)` answers the status and the JSON body
 */
export async function apiAs(user: TestUser) {
  const res = await fetch(`${API}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(res.status).toBe(200);
  const { access_token } = (await res.json()) as { access_token: string };
  return async (method: 'GET' | 'POST', path: string, body?: object) => {
    const r = await fetch(`${API}${path}`, {
      method,
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> & { data?: unknown } };
  };
}
