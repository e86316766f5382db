import { expect, test } from '@playwright/test';
import { signUp } from '../support/auth';

test('shots: the parameters step drawn from the market', async ({ page }) => {
  await signUp(page);
  for (const [theme, width] of [['light', 1280], ['dark', 375]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/create-bot?strategy=grid');
    const form = page.getByRole('form', { name: 'Create bot' });
    await form.getByRole('button', { name: /^Next: / }).click();
    await form.getByRole('button', { name: /^Next: / }).click();
    await expect(form.getByRole('note', { name: 'Values from the market' })).toContainText('Set from the market');
    await page.screenshot({ path: `/tmp/shots/params-${theme}-${width}.png`, fullPage: true });
    await form.getByRole('button', { name: /^Next: / }).click();
    await page.screenshot({ path: `/tmp/shots/budget-${theme}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/create-bot?strategy=dca');
  const form = page.getByRole('form', { name: 'Create bot' });
  await form.getByRole('button', { name: /^Next: / }).click();
  await form.getByLabel('Symbol').fill('SOLUSDT');
  await form.getByRole('button', { name: /^Next: / }).click();
  await expect(form.getByRole('note', { name: 'Values from the market' })).toContainText('Set from the market');
  await page.screenshot({ path: '/tmp/shots/dca-sol.png', fullPage: true });
});
