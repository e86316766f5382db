import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';

async function next(page: Page, step: string) {
  const form = page.getByRole('form', { name: 'Create bot' });
  await form.getByRole('button', { name: /^Next: / }).click();
  await expect(form.getByRole('heading', { level: 2, name: step })).toBeFocused();
}

test.describe('AI agents (bots remote)', () => {
  test('an agent made from the hub trains, decides on paper with its record readable, and a kill latches it', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await signUp(page);

    // The hub offers the agent like any template; create-bot takes it from there
    await page.goto('/bot-hub');
    const template = page.getByRole('region', { name: 'AI agent' });
    await expect(template.getByText(/^No 7-day figures/)).toBeVisible();
    await template.getByRole('link', { name: 'Use the AI agent template' }).click();
    await expect(page).toHaveURL(/\/create-bot\?strategy=ml-agent$/);
    const form = page.getByRole('form', { name: 'Create bot' });
    await expect(form.getByRole('radio', { name: /^AI agent/ })).toBeChecked();
    await form.getByLabel('Name').fill('E2E agent');
    await next(page, 'Market');
    await form.getByLabel('Interval').selectOption('1m');
    await next(page, 'Parameters');
    // A shorter training window than the default: the journey, not the model, is under test
    await form.getByLabel(/^Train bars/).fill('1000');
    await next(page, 'Budget and risk');
    await next(page, 'Mode');
    await expect(form.getByRole('radio', { name: /^Paper/ })).toBeChecked();
    await next(page, 'Review');
    await expect(form.getByText(/No quick backtest for an AI agent/)).toBeVisible();
    await form.getByRole('button', { name: 'Create bot' }).click();

    // Its own page: stopped, untrained, and saying so
    await expect(page).toHaveURL(/\/kestrel\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'E2E agent' })).toBeVisible();
    const status = page.getByRole('region', { name: 'Status' });
    await expect(status.getByText('Stopped: not trained yet')).toBeVisible();
    // Untrained it cannot start, and says why
    await expect(page.getByRole('button', { name: 'Start' })).toBeDisabled();
    await expect(page.getByText('Train it first: it starts with a model')).toBeVisible();

    // Train now: a model with its age against its expiry
    await page.getByRole('button', { name: 'Train now' }).click();
    const modelAge = status.locator('[data-figure="model-age"] dd').first();
    await expect(modelAge).not.toHaveText('No model', { timeout: 90_000 });
    await expect(status.locator('[data-figure="model-age"]')).toContainText('expires at 72 h');

    // Run it on paper: a decision per closed 1m bar arrives, holds included with their reasons
    await page.getByRole('button', { name: 'Start' }).click();
    const start = page.getByRole('dialog', { name: 'Start E2E agent?' });
    await expect(start).toContainText('on paper (no real orders)');
    await start.getByRole('button', { name: 'Start bot' }).click();
    await expect(status.locator('[data-agent-state]')).toHaveAttribute('data-agent-state', 'running', {
      timeout: 20_000,
    });
    const timeline = page.getByRole('list', { name: 'Decisions, newest first' });
    const first = timeline.getByRole('button').first();
    await expect(first).toBeVisible({ timeout: 100_000 });
    await expect(first.getByRole('list', { name: 'Reasons' }).getByRole('listitem').first()).toBeVisible();

    // Its record: what the model saw and how it decided
    await first.click();
    await expect(page).toHaveURL(/\?decision=\d+$/);
    const record = page.getByRole('region', { name: 'Decision record' }).getByRole('article');
    await expect(record.getByRole('meter', { name: /against the threshold$/ })).toBeVisible();
    await expect(
      record.getByRole('list', { name: 'Feature contributions' }).getByRole('listitem'),
    ).toHaveCount(10);
    await expect(record.getByRole('table', { name: 'Trust gates' })).toBeVisible();

    // No serious accessibility violation with the agent running and a record open
    const axe = await new AxeBuilder({ page }).include('section[data-remote="bots"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

    // Kill: said plainly, then latched with its reason; it cannot start until a person resets it
    await page.getByRole('button', { name: 'Kill' }).click();
    const kill = page.getByRole('dialog', { name: 'Kill E2E agent?' });
    await expect(kill).toContainText('stays latched (it cannot start) until you reset it');
    await kill.getByRole('button', { name: 'Kill agent' }).click();
    const latched = page.getByRole('alert', { name: 'Latched' });
    await expect(latched).toContainText('Killed: latched since', { timeout: 20_000 });
    await expect(latched).toContainText('Killed by you');
    await expect(status.locator('[data-agent-state]')).toHaveAttribute('data-agent-state', 'stopped');
    await expect(page.getByRole('button', { name: 'Start' })).toBeDisabled();
    // …and after a reload, from the server
    await page.reload();
    await expect(page.getByRole('alert', { name: 'Latched' })).toBeVisible();
  });

  test('an unknown agent id says so and shows nothing else', async ({ page }) => {
    await signUp(page);
    await page.goto('/kestrel/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Agent not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to active bots' })).toBeVisible();
  });
});
