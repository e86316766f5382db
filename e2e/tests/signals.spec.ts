import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { nextStep as next } from '../support/bot-form';
import { connectBinance } from '../support/exchange';
import { createSimAccount, simSignedGet } from '../support/sim';

/**
 * ETHUSDT: the bot buys at market and no price is set here, so another spec holding ETHUSDT's price changes nothing
 * but the fill's price; its 20 USDT minimum is far below the entry (500 USDT × 0.5 at 3×, about 750 USDT)
 */
const SYMBOL = 'ETHUSDT';

/** TradingView's `{{timenow}}`: ISO 8601 to the second, UTC */
const timenow = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The alert message as TradingView posts it when a strategy's order fires: its placeholders filled */
function fire(message: string, fill: { action: string; orderId: string; time?: string }): string {
  return message
    .replaceAll('{{ticker}}', `${SYMBOL}.P`)
    .replaceAll('{{strategy.order.id}}', fill.orderId)
    .replaceAll('{{strategy.order.action}}', fill.action)
    .replaceAll('{{timenow}}', fill.time ?? timenow());
}

test.describe('signals (bots remote)', () => {
  test('a live webhook-signal bot buys on the alert posted to its webhook, once per id, and lists the refused ones with why', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const user = await signUp(page, { keepConnectModal: true });
    const keys = await createSimAccount({ balances: { USDT: '5000' } });
    await connectBinance(page, keys);

    // The form: live only, and it says the webhook is made on the card once the bot is saved
    await page.goto('/create-bot?strategy=webhook-signal');
    const form = page.getByRole('form', { name: 'Create bot' });
    await expect(form.getByRole('radio', { name: /^Webhook signals/ })).toBeChecked();
    await expect(form.getByRole('note', { name: 'Trades on alerts' })).toBeVisible();
    await form.getByLabel('Name').fill('E2E webhook');
    await next(page, 'Market');
    await form.getByLabel('Symbol').fill(SYMBOL);
    await next(page, 'Parameters');
    await expect(
      form.getByText(/^No orders stand at its start: each buy or sell alert sends one/),
    ).toBeVisible();
    await next(page, 'Budget and risk');
    await form.getByLabel(/^Budget/).fill('500');
    await next(page, 'Mode');
    await expect(form.getByRole('radio', { name: /^Paper/ })).toBeDisabled();
    await expect(form.getByRole('radio', { name: /^Live/ })).toBeChecked();
    await form.getByRole('checkbox', { name: /I understand this bot places real orders/ }).check();
    await next(page, 'Review');
    await expect(form.getByRole('note', { name: 'No quick backtest' })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Run a quick backtest' })).toHaveCount(0);
    await form.getByRole('button', { name: 'Create bot' }).click();

    await expect(page).toHaveURL(/\/active-bots#bot-[0-9a-f-]{36}$/);
    const bot = page.getByRole('region', { name: /^E2E webhook/ });
    await bot.getByRole('button', { name: 'Start' }).click();
    await page
      .getByRole('dialog', { name: 'Start E2E webhook?' })
      .getByRole('button', { name: 'Start bot' })
      .click();
    await expect(bot).toHaveAttribute('data-bot-state', 'running', { timeout: 20_000 });

    // Its Signals section is open from the start: the webhook is how it trades. Made for a live bot, it asks for
    // the password when the last one is over 5 minutes old
    await expect(bot.getByRole('button', { name: 'Hide signals of E2E webhook' })).toBeVisible();
    await expect(bot.getByText(/^No signal received yet: paste the URL and the message/)).toBeVisible();
    await bot.getByRole('button', { name: 'Create webhook URL' }).click();
    const secret = bot.getByRole('group', { name: 'Secret' });
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await expect(secret.or(stepUp)).toBeVisible();
    if (await stepUp.isVisible()) {
      await stepUp.getByLabel('Password').fill(user.password);
      await stepUp.getByRole('button', { name: 'Confirm' }).click();
    }
    await expect(secret).toBeVisible();
    await expect(bot.getByRole('note', { name: 'The secret is shown once' })).toBeVisible();
    const url = (await bot.getByRole('group', { name: 'Webhook URL' }).locator('code').textContent()) ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/signals\/[\w-]+$/);
    const message =
      (await bot.getByRole('group', { name: 'Alert message' }).locator('pre').textContent()) ?? '';
    expect(JSON.parse(message)).toMatchObject({
      secret: expect.stringMatching(/^ksig_/),
      action: '{{strategy.order.action}}',
      symbol: '{{ticker}}',
    });
    // Secret and message shown, no serious accessibility violation
    const axe = await new AxeBuilder({ page }).include('section[data-remote="bots"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

    // TradingView fires the alert: no sign-in, the message as its body. The order is sent before the answer
    const orderId = `e2e-${randomUUID().slice(0, 8)}`;
    const buy = fire(message, { action: 'buy', orderId });
    const sent = { data: buy, headers: { 'content-type': 'text/plain; charset=utf-8' } };
    const first = await page.request.post(url, sent);
    expect(first.status(), await first.text()).toBe(200);
    expect(await first.json()).toMatchObject({
      data: { duplicate: false, signal: { action: 'buy', symbol: SYMBOL, outcome: 'acted' } },
    });
    await expect(bot.locator('[data-figure="position"] dd').first()).toHaveText(/^Long /, {
      timeout: 15_000,
    });
    const list = bot.getByRole('list', { name: 'Signals of E2E webhook' });
    // By its id line (a refusal's message may quote another signal's id)
    const thisOne = list
      .getByRole('listitem')
      .filter({ hasText: new RegExp(`id ${SYMBOL}\\.P-${orderId}-\\d{4}-`) });
    await expect(thisOne).toHaveCount(1, { timeout: 15_000 });
    await expect(thisOne).toHaveAttribute('data-outcome', 'acted');
    await expect(thisOne).toContainText(`Acted Buy ${SYMBOL} `);
    await expect(thisOne).toContainText('1 order sent');

    // The same alert again (a retry): the first outcome answers, no second order
    const again = await page.request.post(url, sent);
    expect(again.status()).toBe(200);
    expect(await again.json()).toMatchObject({ data: { duplicate: true, signal: { outcome: 'acted' } } });

    // A wrong signature, and an alert ten minutes old: refused, each listed with why
    const forged = await page.request.post(url, {
      data: fire(message, { action: 'sell', orderId: `${orderId}-forged` }),
      headers: { 'content-type': 'text/plain', 'x-kestrel-signature': `sha256=${'0'.repeat(64)}` },
    });
    expect(forged.status()).toBe(401);
    const stale = await page.request.post(url, {
      data: fire(message, {
        action: 'sell',
        orderId: `${orderId}-stale`,
        time: timenow(Date.now() - 10 * 60_000),
      }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(stale.status()).toBe(400);
    expect(await stale.json()).toMatchObject({ code: 'SIGNAL_STALE' });
    const refused = list.locator('li[data-outcome="refused"]');
    await expect(refused).toHaveCount(2, { timeout: 15_000 });
    await expect(refused.filter({ hasText: 'Not read' })).toContainText(
      'The signature does not match the body',
    );
    await expect(refused.filter({ hasText: `Sell ${SYMBOL}` })).toContainText(
      'only signals within 5 minutes are taken',
    );
    // The retry added nothing: one signal of that id, one order on the exchange
    await expect(thisOne).toHaveCount(1);
    await expect(list.getByRole('listitem')).toHaveCount(3);
    const orders = await simSignedGet<unknown[]>(keys, '/fapi/v1/allOrders', { symbol: SYMBOL });
    expect(orders).toHaveLength(1);

    await bot.getByRole('button', { name: 'Stop' }).click();
    await page
      .getByRole('dialog', { name: 'Stop E2E webhook?' })
      .getByRole('button', { name: 'Stop bot' })
      .click();
    await expect(bot).toHaveAttribute('data-bot-state', 'stopped', { timeout: 20_000 });
  });
});
