import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { uncontainedRules } from '../support/css-scope';

const repo = resolve(import.meta.dirname, '../..');

/** Each app, its build folder and the class prefix its own utilities use (ui's are `ui:` everywhere) */
const apps = [
  { name: 'shell', dir: 'shell', prefix: 'sh' },
  { name: 'dashboard', dir: 'remotes/dashboard', prefix: 'db' },
  { name: 'bots', dir: 'remotes/bots', prefix: 'bt' },
  { name: 'exchange_connect', dir: 'remotes/exchange-connect', prefix: 'xc' },
  { name: 'account', dir: 'remotes/account', prefix: 'ac' },
] as const;

type Manifest = {
  exposes: { assets: { css: { sync: string[]; async: string[] } } }[];
  shared: { assets: { css: { sync: string[]; async: string[] } } }[];
};

/** The stylesheets the shell can load from a remote: those of its exposed and shared modules */
function federatedStylesheets(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(repo, dir, 'dist/mf-manifest.json'), 'utf8')) as Manifest;
  const files = new Set<string>();
  for (const item of [...manifest.exposes, ...manifest.shared]) {
    for (const css of [...item.assets.css.sync, ...item.assets.css.async]) files.add(css);
  }
  return [...files];
}

test.describe('CSS isolation between the shell and the remotes', () => {
  test('the scope check itself flags a leaking rule', () => {
    const leaky = '@layer utilities{.db\\:flex{display:flex}} body{background:red} *{--primary:red}';
    expect(uncontainedRules(leaky, { prefixes: ['db', 'ui'] })).toEqual([
      'body { background }',
      '* { --primary }',
    ]);
  });

  for (const app of apps) {
    test(`every rule the ${app.name} app ships is scoped to its own prefix`, () => {
      // The shell's every stylesheet; a remote's as the shell loads them (not its standalone page's base)
      const files = app.name === 'shell' ? allStylesheets(app.dir) : federatedStylesheets(app.dir);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const css = readFileSync(join(repo, app.dir, 'dist', file), 'utf8');
        expect(
          uncontainedRules(css, { prefixes: [app.prefix, 'ui'], ownsBase: app.name === 'shell' }),
          file,
        ).toEqual([]);
      }
    });
  }

  test('loading every remote leaves the shell looking exactly as before', async ({ page }) => {
    await signUp(page);
    await expect(page.locator('section[data-remote="dashboard"]')).toBeVisible();
    const before = await shellStyles(page);

    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const link of ['Bot hub', 'Account', 'Settings', 'Dashboard']) {
      await nav.getByRole('link', { name: link }).click();
    }
    await expect(page.locator('section[data-remote="dashboard"]')).toBeVisible();
    expect(await page.locator('link[rel="stylesheet"], style').count()).toBeGreaterThan(3);
    expect(await shellStyles(page)).toEqual(before);
  });
});

function allStylesheets(dir: string): string[] {
  return readdirSync(join(repo, dir, 'dist')).filter((f) => f.endsWith('.css'));
}

/** Computed styles of shell-owned elements that a leaking remote rule would change */
async function shellStyles(page: Page) {
  return page.evaluate(() => {
    const pick = (el: Element | null) => {
      if (!el) return null;
      const s = getComputedStyle(el);
      return [
        s.display,
        s.padding,
        s.margin,
        s.fontSize,
        s.fontWeight,
        s.color,
        s.backgroundColor,
        s.height,
      ].join('|');
    };
    return {
      body: pick(document.body),
      topBar: pick(document.querySelector('[data-testid="top-bar"]')),
      sidebarLink: pick(document.querySelector('nav[aria-label="Main"] a')),
      main: pick(document.querySelector('main')),
    };
  });
}
