import { expect, test } from '@playwright/test';
import { signUp } from '../support/auth';

/**
 * The static sites send a Content Security Policy (scripts only from the shell's and the remotes' sites, data only
 * to the API): every page must still work under it, and nothing the pages do may be refused by it. A refusal is a
 * `securitypolicyviolation` event in the page, recorded from before the first script runs.
 */
const SIGNED_IN_PAGES = [
  '/dashboard',
  '/portfolio',
  '/history',
  '/analytics',
  '/risk',
  '/bot-hub',
  '/active-bots',
  '/create-bot',
  '/backtesting',
  '/account',
  '/settings',
];

test('every page runs under the content security policy without a single refusal', async ({ page }) => {
  // Eleven page loads, each fetching its remote
  test.setTimeout(120_000);
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(
        `${e.violatedDirective} ${e.blockedURI || '(inline)'} at ${location.pathname} from ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  const response = await page.goto('/');
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");

  await signUp(page);
  for (const path of SIGNED_IN_PAGES) {
    await page.goto(path);
    // The remote's page is in: its frame's heading (each signed-in page has one)
    await expect(page.getByRole('main').getByRole('heading').first()).toBeVisible();
    const violations = await page.evaluate(
      () => (window as unknown as { cspViolations: string[] }).cspViolations,
    );
    expect(violations, `refused on ${path}`).toEqual([]);
  }
});
