/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
import { signalAlertTemplate } from '@kestrel/contracts/bots';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBot, stopBot } from '../../../features/bots/api/bot-actions';
import { createBot } from '../../../features/bots/api/create-bot';
import { renderAt, type ServerPage, startServerPage } from '../../../test/server-page';
import ActiveBotsPage from '../active-bots';

let page: ServerPage;
beforeAll(async () => {
  // The simulator on the wall clock, as the app's: a bot started now trades the bar that closed last, which a
  // simulator at its fixed test day would not have
  page = await startServerPage('signals@example.test', { simulator: { clock: { now: () => Date.now() } } });
  const keys = page.server.demoKeys({ balances: { USDT: '5000' } });
  expect(await page.runtime.exchanges.connect('binance', keys)).toMatchObject({ success: true });
}, 60_000);
afterAll(() => page?.close());

const pages = { '/active-bots': ActiveBotsPage };
const card = (name: string) => screen.findByRole('region', { name: new RegExp(`^${name}`) });
/** The text of a copyable value (URL, secret, message) on a card */
const shown = (scope: HTMLElement, label: string) =>
  within(scope).getByRole('group', { name: label }).querySelector('code, pre')?.textContent ?? '';

/** An alert as TradingView posts it: the message with its placeholders filled */
function filled(message: string, action: string, symbol: string, id: string): string {
  return message
    .replaceAll('{{ticker}}', `${symbol}.P`)
    .replaceAll('{{strategy.order.id}}', id)
    .replaceAll('{{strategy.order.action}}', action)
    .replaceAll('{{timenow}}', new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'));
}

const post = (url: string, body: string) =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });

describe('the Signals section of a bot card', () => {
  it('a webhook-signal bot: its webhook made, its secret and message shown once, a posted buy listed as acted; the secret hidden later; replace and remove asked first', async () => {
    const bot = await createBot(page.runtime.api, {
      name: 'Hook bot',
      strategy: 'webhook-signal',
      params: {},
      symbol: 'BTCUSDT',
      interval: '1h',
      leverage: 3,
      // Half of it as margin at 3×: about 750 USDT of BTC, above the exchange's 100 USDT minimum
      budget: 500,
      mode: 'live',
      confirmLive: true,
    });
    await startBot(page.runtime.api, bot.id);
    const { user } = renderAt(page.runtime, '/active-bots', pages);
    const hooked = await card('Hook bot');

    // Open from the start: the webhook is how this bot trades
    expect(
      await within(hooked).findByText(
        'It trades only on the alerts posted to its webhook: buy, sell and close, and start and stop.',
      ),
    ).toBeTruthy();
    expect(
      within(hooked).getByRole('button', { name: 'Hide signals of Hook bot' }).getAttribute('aria-expanded'),
    ).toBe('true');
    expect(
      await within(hooked).findByText(
        'No signal received yet: paste the URL and the message into a TradingView alert.',
      ),
    ).toBeTruthy();
    await user.click(await within(hooked).findByRole('button', { name: 'Create webhook URL' }));

    // The full URL on the API's address, the secret and the message, each with Copy; said to be shown once
    await within(hooked).findByRole('group', { name: 'Secret' });
    const url = shown(hooked, 'Webhook URL');
    expect(url).toMatch(new RegExp(`^${page.runtime.config.apiBaseUrl}/api/v1/signals/[\\w-]+$`));
    const secret = shown(hooked, 'Secret');
    expect(secret).toMatch(/^ksig_/);
    const message = shown(hooked, 'Alert message');
    expect(message).toBe(signalAlertTemplate(secret));
    expect(within(hooked).getByRole('note', { name: 'The secret is shown once' }).textContent).toMatch(
      /^Copy the secret now: it is shown only this once\./,
    );
    expect(within(hooked).getByText('Sign the alerts instead of sending the secret')).toBeTruthy();
    await user.click(within(hooked).getByRole('button', { name: 'Copy webhook URL' }));
    expect(await within(hooked).findByRole('button', { name: 'Copied webhook URL' })).toBeTruthy();

    // An alert posts to it as TradingView would (no sign-in): the bot buys at once, its list says so
    const answer = await post(url, filled(message, 'buy', 'BTCUSDT', 'unit-1'));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: { duplicate: false, signal: { outcome: 'acted' } } });
    const list = await within(hooked).findByRole(
      'list',
      { name: 'Signals of Hook bot' },
      { timeout: 15_000 },
    );
    const acted = list.querySelector('li[data-outcome="acted"]');
    expect(acted?.textContent).toMatch(
      /^Acted Buy BTCUSDT \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC · 1 order1 order sent/,
    );
    expect(acted?.textContent).toMatch(/id BTCUSDT\.P-unit-1-\d{4}-\d{2}-\d{2}T[\d:]+Z$/);
    await waitFor(
      () =>
        expect(within(hooked).getByLabelText('Figures of Hook bot').textContent).toMatch(/Position\s*Long /),
      { timeout: 15_000 },
    );

    // A later visit: the URL, never the secret
    cleanup();
    const again = renderAt(page.runtime, '/active-bots', pages);
    const later = await card('Hook bot');
    await within(later).findByRole('group', { name: 'Webhook URL' });
    expect(shown(later, 'Webhook URL')).toBe(url);
    expect(within(later).queryByRole('group', { name: 'Secret' })).toBeNull();
    expect(within(later).getByText(/^The secret is hidden: it was shown once/)).toBeTruthy();

    // Replace: said first; the new URL and secret are shown, the old URL takes nothing any more
    await again.user.click(within(later).getByRole('button', { name: 'Replace URL and secret' }));
    const replace = await screen.findByRole('dialog', { name: 'Replace the webhook of Hook bot?' });
    expect(within(replace).getByText(/the old URL stops taking signals at once/)).toBeTruthy();
    await again.user.click(within(replace).getByRole('button', { name: 'Replace URL and secret' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const secondSecret = await within(later).findByRole('group', { name: 'Secret' });
    expect(secondSecret.textContent).not.toContain(secret);
    expect(shown(later, 'Webhook URL')).not.toBe(url);
    expect((await post(url, filled(message, 'close', 'BTCUSDT', 'unit-2'))).status).toBe(404);

    // Remove: said first; back to the button that makes one, the signals received still listed
    await again.user.click(within(later).getByRole('button', { name: 'Remove webhook' }));
    const remove = await screen.findByRole('dialog', { name: 'Remove the webhook of Hook bot?' });
    await again.user.click(within(remove).getByRole('button', { name: 'Remove webhook' }));
    expect(await within(later).findByRole('button', { name: 'Create webhook URL' })).toBeTruthy();
    expect(
      within(later)
        .getByRole('list', { name: 'Signals of Hook bot' })
        .querySelectorAll('li[data-outcome="acted"]'),
    ).toHaveLength(1);
    await stopBot(page.runtime.api, bot.id);
  }, 90_000);

  it('any other bot offers it collapsed, saying only start and stop reach it; a buy posted to it is listed as refused', async () => {
    await createBot(page.runtime.api, {
      name: 'Plain grid',
      strategy: 'grid',
      params: { lower: 40_000, upper: 50_000, gridCount: 2, quantityPerGrid: 0.003 },
      symbol: 'BTCUSDT',
      interval: '1h',
      leverage: 2,
      budget: 250,
      mode: 'paper',
    });
    const { user } = renderAt(page.runtime, '/active-bots', pages);
    const grid = await card('Plain grid');
    expect(
      await within(grid).findByText(
        'Its strategy places its own orders: only start and stop alerts reach it through a webhook.',
      ),
    ).toBeTruthy();
    const toggle = within(grid).getByRole('button', { name: 'Show signals of Plain grid' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(grid).queryByRole('button', { name: 'Create webhook URL' })).toBeNull();
    await user.click(toggle);
    expect(await within(grid).findByText(/each one tells this bot to start or stop\./)).toBeTruthy();
    await user.click(within(grid).getByRole('button', { name: 'Create webhook URL' }));
    await within(grid).findByRole('group', { name: 'Secret' });
    // Its message asks it to stop: a buy would be refused
    const message = shown(grid, 'Alert message');
    expect(JSON.parse(message)).toMatchObject({ action: 'stop' });

    const buy = message.replace('"stop"', '"{{strategy.order.action}}"');
    const answer = await post(shown(grid, 'Webhook URL'), filled(buy, 'buy', 'BTCUSDT', 'unit-3'));
    expect(answer.status).toBe(409);
    // A stopped bot's list is not polled (a push would refresh it; this page has no socket): shown again, it is read
    await user.click(within(grid).getByRole('button', { name: 'Hide signals of Plain grid' }));
    await user.click(within(grid).getByRole('button', { name: 'Show signals of Plain grid' }));
    const list = await within(grid).findByRole(
      'list',
      { name: 'Signals of Plain grid' },
      { timeout: 15_000 },
    );
    const refused = list.querySelector('li[data-outcome="refused"]');
    expect(refused?.textContent).toMatch(
      /^Refused Buy BTCUSDT .*Plain grid does not trade on signals \(its strategy decides its own orders\): only start and stop reach it/,
    );
  }, 60_000);
});
