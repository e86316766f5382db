import { expect, test } from '@playwright/test';
import { signUp } from '../support/auth';

const DAY_MS = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

test.describe('backtesting page, Optimise mode (bots remote)', () => {
  test('runs a small sweep on the server, shows the overfitting tests first, creates a bot from the best combination and opens it as a backtest', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await signUp(page);
    await page.goto('/backtesting');
    await page.getByRole('button', { name: 'Optimise' }).click();
    await expect(page).toHaveURL(/[?&]mode=optimise/);

    const form = page.getByRole('form', { name: 'Optimisation' });
    await expect(form.getByLabel('Strategy')).toHaveValue('ema-cross');
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    await form.getByLabel('Interval').selectOption('1h');
    await form.getByLabel('Start date').fill(isoDate(today - 8 * DAY_MS));
    await form.getByLabel('End date').fill(isoDate(today - DAY_MS));

    // A zero step is refused in the browser with the API's own rule, under its field
    await form.getByLabel('Fast: step').fill('0');
    await form.getByRole('button', { name: 'Optimise' }).click();
    await expect(form.getByText('step must be greater than 0')).toBeVisible();

    // fast 4, 6, 8 × slow 20, 30: six combinations
    await form.getByLabel('Fast: from').fill('4');
    await form.getByLabel('Fast: to').fill('8');
    await form.getByLabel('Fast: step').fill('2');
    await form.getByLabel('Slow: from').fill('20');
    await form.getByLabel('Slow: to').fill('30');
    await form.getByLabel('Slow: step').fill('10');
    await expect(form.getByText('6 combinations')).toBeVisible();
    await form.getByRole('button', { name: 'Optimise' }).click();
    await expect(page).toHaveURL(/[?&]job=[0-9a-f-]{36}/);

    const result = page.getByRole('region', { name: 'Optimisation result' });
    const verdict = result.getByTestId('overfitting-verdict');
    await expect(verdict).toBeVisible({ timeout: 120_000 });
    // The deflated Sharpe ratio, PBO and random-entry p come before any in-sample figure
    await expect(verdict.getByTestId('dsr')).toHaveText(/^\d+\.\d{2}%$/);
    await expect(verdict.getByTestId('pbo')).toHaveText(/^(\d+\.\d{2}%|—)$/);
    await expect(verdict.getByTestId('random-entry')).toHaveText(/^\d\.\d{3}$/);
    await expect(result.getByTestId('heat-map').getByRole('columnheader')).toHaveText([
      'slow \\ fast',
      '4',
      '6',
      '8',
    ]);
    const table = result.getByRole('table', { name: 'Every combination' });
    await expect(table.getByRole('row')).toHaveCount(7);

    const best = result.getByText('Best combination (in sample)').locator('..').locator('..');
    const jobUrl = page.url();

    // The best combination as a bot: /create-bot opens with its strategy, market and parameters, saved stopped
    const [, fast, slow] =
      (await best.getByText(/^fast \d+ · slow \d+\./).textContent())?.match(/^fast (\d+) · slow (\d+)/) ?? [];
    await best.getByRole('link', { name: 'Create a bot from it' }).click();
    await expect(page).toHaveURL(/\/create-bot\?strategy=ema-cross&symbol=BTCUSDT&interval=1h&params=/);
    const botForm = page.getByRole('form', { name: 'Create bot' });
    await expect(botForm.getByLabel('Name')).toHaveValue('EMA crossover BTCUSDT');
    const next = async (step: string) => {
      await botForm.getByRole('button', { name: /^Next: / }).click();
      await expect(botForm.getByRole('heading', { level: 2, name: step })).toBeFocused();
    };
    await next('Market');
    await expect(botForm.getByLabel('Interval')).toHaveValue('1h');
    await next('Parameters');
    await expect(botForm.getByLabel(/^Fast/)).toHaveValue(String(fast));
    await expect(botForm.getByLabel(/^Slow/)).toHaveValue(String(slow));
    await next('Budget and risk');
    await next('Mode');
    await next('Review');
    await expect(botForm.getByText(/^BTCUSDT · 1h bars · /)).toBeVisible();
    await botForm.getByRole('button', { name: 'Create bot' }).click();
    await expect(page).toHaveURL(/\/active-bots#bot-[0-9a-f-]{36}$/);
    const bot = page.getByRole('region', { name: /^EMA crossover BTCUSDT/ });
    await expect(bot).toHaveAttribute('data-bot-state', 'stopped');

    // Back to the job: the same combination as a normal backtest
    await page.goto(jobUrl);
    await best.getByRole('button', { name: 'Open as a backtest' }).click();
    await expect(page).toHaveURL(/[?&]run=[0-9a-f-]{36}/);
    await expect(page).not.toHaveURL(/mode=optimise/);
    await expect(page.getByRole('region', { name: /^Results: EMA crossover · BTCUSDT 1h/ })).toBeVisible({
      timeout: 60_000,
    });
  });
});
