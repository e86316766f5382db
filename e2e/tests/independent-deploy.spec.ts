import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStaticSite } from '@kestrel/federation/static-site';
import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { E2E_REMOTES_FILE } from '../support/deploy';
import { E2E_REMOTE_PORTS, E2E_SHELL_PORT } from '../support/ports';

const repo = join(import.meta.dirname, '../..');
const canaryDir = join(repo, '.data/e2e-canary/dashboard');
const label = `canary-${Date.now().toString(36)}`;

/** `pnpm build` of the dashboard remote, as its team's pipeline runs it, into a folder of its own */
function buildCanary(): Promise<void> {
  return new Promise((ok, fail) => {
    const build = spawn('pnpm', ['run', 'build'], {
      cwd: join(repo, 'remotes/dashboard'),
      env: { ...process.env, NODE_ENV: 'production', KESTREL_OUT_DIR: canaryDir, KESTREL_BUILD_LABEL: label },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    build.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    build.on('exit', (code) =>
      code === 0 ? ok() : fail(new Error(`canary build failed (${code}): ${errors}`)),
    );
  });
}

async function platformRow(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  return page
    .getByRole('list', { name: 'Deployed parts' })
    .getByRole('listitem', { name: 'Dashboard remote' });
}

test.describe('a remote deployed on its own', () => {
  // One build of a remote and three page loads on a shared 2-core machine
  test.setTimeout(240_000);

  test.afterEach(async () => {
    // Whatever happened, the rest of the suite gets the usual dashboard remote back
    await rm(E2E_REMOTES_FILE, { force: true });
  });

  test('a new build is picked up by pointing config.json at it, and rolled back the same way', async ({
    page,
  }) => {
    await buildCanary();
    // A second host for the new build, as a CDN folder or another server would be
    const canary = await serveStaticSite({ root: canaryDir, port: E2E_SHELL_PORT + 5, spa: true });
    try {
      await signUp(page);
      const usual = `http://127.0.0.1:${E2E_REMOTE_PORTS.dashboard}/mf-manifest.json`;
      let row = await platformRow(page);
      await expect(row).toContainText(usual);
      await expect(row).not.toContainText(label);

      // Deploy: the deployment file names the new build; no shell rebuild, no restart
      await writeFile(E2E_REMOTES_FILE, JSON.stringify({ dashboard: `${canary.url}/mf-manifest.json` }));
      await page.goto('/dashboard');
      await expect(page.locator('section[data-remote="dashboard"]')).toBeVisible();
      row = await platformRow(page);
      await expect(row).toContainText(`${canary.url}/mf-manifest.json`);
      await expect(row.getByText(label, { exact: true })).toBeVisible();
      // The page really ran the new build's code: the dashboard page was loaded from it on this page
      await expect(row).toContainText(/\.\/DashboardPage in \d+ ms/);

      // Roll back: the file no longer names it
      await writeFile(E2E_REMOTES_FILE, '{}');
      await page.goto('/dashboard');
      await expect(page.locator('section[data-remote="dashboard"]')).toBeVisible();
      row = await platformRow(page);
      await expect(row).toContainText(usual);
      await expect(row.getByText(label, { exact: true })).toHaveCount(0);
      await expect(row).toContainText(/\.\/DashboardPage in \d+ ms/);
    } finally {
      await canary.close();
    }
  });
});
