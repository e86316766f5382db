import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { E2E_REMOTE_PORTS, remoteOrigin } from '../support/ports';

/** Serves the shell a config.json changed by `edit`, as a deployment would by replacing that one file */
async function withRuntimeConfig(page: Page, edit: (config: Record<string, unknown>) => void) {
  await page.route('**/config.json', async (route) => {
    const response = await route.fetch();
    const config = (await response.json()) as Record<string, unknown>;
    edit(config);
    await route.fulfill({ response, json: config });
  });
}

const remotePage = (page: Page, remote: string) => page.locator(`section[data-remote="${remote}"]`);

test.describe('module federation', () => {
  // Every page below is a signed-in page: each test starts as a freshly signed-up trader
  test.beforeEach(async ({ page }) => {
    await signUp(page);
  });

  test('the shell renders a page from each remote', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(remotePage(page, 'dashboard').getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    // Without an exchange the account's figures say how to get them, never a placeholder about who rendered it
    await expect(
      remotePage(page, 'dashboard').getByRole('heading', { level: 2, name: 'No exchange connected' }).first(),
    ).toBeVisible();
    await expect(remotePage(page, 'dashboard')).not.toContainText('Rendered by');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bot hub' }).click();
    await expect(remotePage(page, 'bots').getByRole('heading', { level: 1 })).toHaveText('Bot hub');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await expect(remotePage(page, 'account').getByRole('heading', { level: 1 })).toHaveText('Account');

    // Settings (account remote) composes the exchange-connect remote's card grid through the federation runtime
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    const connections = page.locator('[data-remote="exchange_connect"]');
    await expect(connections.getByRole('article', { name: 'Binance' })).toContainText('Connect Exchange');
    await expect(connections.getByText('Coming Soon', { exact: true }).first()).toBeVisible();
  });

  test('every remote sees the same shared-runtime instance as the shell', async ({ page }) => {
    await page.goto('/settings');
    await expect(page.locator('[data-remote="exchange_connect"]')).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(remotePage(page, 'dashboard')).toBeVisible();
    await nav.getByRole('link', { name: 'Backtesting' }).click();
    await expect(remotePage(page, 'bots')).toBeVisible();

    const shellInstance = await page
      .locator('[data-runtime-instance]')
      .first()
      .getAttribute('data-runtime-instance');
    expect(shellInstance).toMatch(/^[0-9a-f-]{36}$/);
    // Visit each remote again and compare its instance id with the shell's
    for (const [link, remote] of [
      ['Dashboard', 'dashboard'],
      ['Backtesting', 'bots'],
      ['Settings', 'account'],
    ] as const) {
      await nav.getByRole('link', { name: link }).click();
      await expect(remotePage(page, remote)).toHaveAttribute('data-runtime-instance', shellInstance ?? '');
    }
    await expect(page.locator('[data-remote="exchange_connect"]')).toHaveAttribute(
      'data-runtime-instance',
      shellInstance ?? '',
    );
  });

  test("the remotes' schemas come from the shell's build: pages without forms of their own load no remote's zod", async ({
    page,
  }) => {
    // The shell provides each of @kestrel/contracts' entry points (the main one, /bots, /backtest, /account…) on
    // the page's one zod. A remote whose entry point the shell did not provide falls back to its own bundled copy:
    // the page still works, with a second zod (~26 KB gzip). Forms that import zod themselves are left out here.
    const remoteScripts: Promise<{ url: string; zod: boolean }>[] = [];
    const remoteOrigins = (Object.keys(E2E_REMOTE_PORTS) as (keyof typeof E2E_REMOTE_PORTS)[]).map(
      remoteOrigin,
    );
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script' || response.status() !== 200) return;
      if (!remoteOrigins.some((origin) => response.url().startsWith(origin))) return;
      remoteScripts.push(
        response.text().then((text) => ({ url: response.url(), zod: text.includes('$ZodType') })),
      );
    });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await page.goto('/dashboard');
    await expect(remotePage(page, 'dashboard').getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    for (const [link, remote, heading] of [
      ['Trading history', 'dashboard', 'Trading history'],
      ['Analytics', 'dashboard', 'Analytics'],
      ['Bot hub', 'bots', 'Bot hub'],
      ['Active bots', 'bots', 'Active bots'],
    ] as const) {
      await nav.getByRole('link', { name: link }).click();
      await expect(remotePage(page, remote).getByRole('heading', { level: 1 })).toHaveText(heading);
    }
    await page.waitForLoadState('networkidle');
    const scripts = await Promise.all(remoteScripts);
    expect(scripts.length).toBeGreaterThan(4);
    expect(scripts.filter((s) => s.zod).map((s) => s.url)).toEqual([]);
  });

  test('with one remote unreachable the shell and the other remotes keep working', async ({ page }) => {
    // Nothing listens on port 9: the bots remote's manifest cannot be fetched at all
    await withRuntimeConfig(page, (config) => {
      (config.remotes as Record<string, string>).bots = 'http://127.0.0.1:9/mf-manifest.json';
    });
    await page.goto('/bot-hub');
    const fallback = page.getByRole('alert');
    await expect(fallback).toContainText('Bot hub is unavailable right now');
    await expect(fallback.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(remotePage(page, 'dashboard').getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page.locator('[data-remote="exchange_connect"]')).toBeVisible();
  });

  test('a remote that comes back is loaded by Retry, without reloading the page', async ({ page }) => {
    const manifest = `${remoteOrigin('bots')}/mf-manifest.json`;
    await page.route(manifest, (route) => route.abort('connectionrefused'));
    await page.goto('/active-bots');
    await expect(page.getByRole('alert')).toContainText('Active bots is unavailable right now');

    await page.unroute(manifest);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(remotePage(page, 'bots').getByRole('heading', { level: 1 })).toHaveText('Active bots');
  });

  test('a slow remote gets the fallback after the configured wait, then appears when it arrives', async ({
    page,
  }) => {
    await withRuntimeConfig(page, (config) => {
      config.remoteLoadTimeoutMs = 1_000;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`${remoteOrigin('account')}/mf-manifest.json`, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/account');
    await expect(page.getByRole('alert')).toContainText('Account is taking longer than usual');
    release();
    await expect(remotePage(page, 'account').getByRole('heading', { level: 1 })).toHaveText('Account');
  });

  test('a remote built for another shared runtime is refused with the reason, and the others keep working', async ({
    page,
  }) => {
    // The deployer states that this installation's dashboard must be built for runtime ^99.0.0; the deployed one
    // was built for the runtime the page runs, so it must not start
    await withRuntimeConfig(page, (config) => {
      config.sharedRuntimeRanges = { dashboard: '^99.0.0' };
    });
    await page.goto('/dashboard');
    const slot = page.locator('[data-remote-slot="dashboard"][data-state="incompatible"]');
    await expect(slot).toContainText('Dashboard needs a matching deployment');
    await expect(slot).toContainText(
      /built for version \d+\.\d+\.\d+ of Kestrel's shared runtime; this installation expects \^99\.0\.0/,
    );
    await expect(remotePage(page, 'dashboard')).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bot hub' }).click();
    await expect(remotePage(page, 'bots').getByRole('heading', { level: 1 })).toHaveText('Bot hub');
  });

  test('unknown paths redirect to the landing page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kestrel');
  });

  test('the agent route passes the agent id to the bots remote', async ({ page }) => {
    await page.goto('/kestrel/agent-42');
    await expect(remotePage(page, 'bots')).toContainText('You have no agent with the id "agent-42"');
  });

  test('each remote also runs on its own standalone page', async ({ page }) => {
    await page.goto(`${remoteOrigin('dashboard')}/`);
    await expect(page).toHaveURL(`${remoteOrigin('dashboard')}/dashboard`);
    await expect(remotePage(page, 'dashboard').getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    await page.getByRole('link', { name: 'Risk management' }).click();
    await expect(remotePage(page, 'dashboard').getByRole('heading', { level: 1 })).toHaveText(
      'Risk management',
    );

    await page.goto(`${remoteOrigin('exchange_connect')}/`);
    await expect(page.locator('[data-remote="exchange_connect"]')).toBeVisible();
    await page.getByRole('button', { name: 'Open the connect modal' }).click();
    await expect(page.getByRole('dialog', { name: 'Connect Exchange' })).toBeVisible();
  });
});
