import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from '@playwright/test';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Ports of the product the page benches start: `BENCH_SHELL_PORT` (4500; the remotes on +1…4, the API on +80, the
 * simulator on the API's +100), so two checkouts on one machine can bench side by side
 */
export const SHELL_PORT = Number(process.env.BENCH_SHELL_PORT ?? 4500);
export const API_PORT = SHELL_PORT + 80;

/** The whole product as `./kestrel start` runs it (production builds, real server), on its own ports */
export async function startProduct(): Promise<() => void> {
  const child = spawn(process.execPath, [join(repo, 'scripts/start.mjs')], {
    env: {
      ...process.env,
      KESTREL_SHELL_PORT: String(SHELL_PORT),
      KESTREL_PORT: String(API_PORT),
      KESTREL_DATA_DIR: join(repo, '.data/bench'),
      KESTREL_FRESH_DATA: '1',
      KESTREL_LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${API_PORT}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error('The product did not start within 60 s (see `node scripts/start.mjs`)');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return () => child.kill('SIGTERM');
}

/** Signs a new trader up through the landing page of the shell at `shellUrl`, as a visitor does; ends on /dashboard */
export async function signUpOnLanding(page: Page, shellUrl: string): Promise<void> {
  await page.goto(`${shellUrl}/`);
  await page.getByRole('button', { name: 'Create an account' }).click();
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('Email').fill(`bench-${Date.now()}@example.com`);
  await form.getByLabel('Password').fill('bench passphrase');
  await form.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/dashboard$/);
}

/** Signs a new trader up through the landing page; the session (local storage) for new contexts to start from */
export async function signedInState(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUpOnLanding(page, `http://127.0.0.1:${SHELL_PORT}`);
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * As a trader who chose "Skip for Now" in this tab: the connect modal (1 s after a page with no exchange) stays shut.
 * The key is connect-exchange-prompt.tsx's
 */
export async function skipConnectPrompt(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const user = JSON.parse(localStorage.getItem('kestrel-user') ?? '{}') as { id?: string };
    sessionStorage.setItem(`kestrel-connect-prompt-skipped:${user.id}`, '1');
  });
}
