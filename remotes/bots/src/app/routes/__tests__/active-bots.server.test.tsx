/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
import { BotListResponseSchema } from '@kestrel/contracts/bots';
import { unwrap } from '@kestrel/shared-runtime';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../../features/bots/api/create-bot';
import { renderAt, type ServerPage, startServerPage } from '../../../test/server-page';
import ActiveBotsPage from '../active-bots';
import BotHubPage from '../bot-hub';

let page: ServerPage;
beforeAll(async () => {
  page = await startServerPage('active-bots@example.test');
}, 60_000);
afterAll(() => page?.close());

const pages = { '/active-bots': ActiveBotsPage, '/bot-hub': BotHubPage };

const listBots = async () =>
  unwrap(await page.runtime.api.get('/api/v1/agents', { schema: BotListResponseSchema })).data;

const card = (name: string) => screen.findByRole('region', { name: new RegExp(`^${name}`) });

describe('the active bots page', () => {
  it('with no bots, says so and leads to the hub; without an exchange, offers to connect one', async () => {
    renderAt(page.runtime, '/active-bots', pages);
    const region = screen.getByRole('region', { name: 'Active bots' });
    expect(await within(region).findByRole('heading', { level: 2, name: 'No bots yet' })).toBeTruthy();
    expect(within(region).getByRole('link', { name: 'Go to the bot hub' }).getAttribute('href')).toBe(
      '/bot-hub',
    );
    expect(within(region).getByRole('note', { name: 'No exchange connected' })).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Connect exchange' })).toBeTruthy();
    // No bot, no figures: zeros of nothing would only look like data
    expect(screen.queryByLabelText('All bots')).toBeNull();
  });

  it('starts, stops and deletes bots after saying what will happen; a stopped bot says why', async () => {
    await createBot(page.runtime.api, {
      name: 'Grid A',
      strategy: 'grid',
      // Orders the exchange takes (0.003 BTC is above its 100 USDT minimum) within the budget
      params: { lower: 40_000, upper: 50_000, gridCount: 2, quantityPerGrid: 0.003 },
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 2,
      budget: 250,
      mode: 'paper',
    });
    await createBot(page.runtime.api, {
      name: 'DCA B',
      strategy: 'dca',
      // The base order alone: 200 USDT at 3× needs 67 USDT of margin
      params: { safetyOrderCount: 0 },
      symbol: 'BTCUSDT',
      interval: '1h',
      leverage: 3,
      budget: 100,
      mode: 'paper',
    });
    const { user } = renderAt(page.runtime, '/active-bots', pages);
    const grid = await card('Grid A');
    expect(grid.getAttribute('data-bot-state')).toBe('stopped');
    expect(await within(grid).findByText('Futures grid · BTCUSDT 1m · 2× · paper')).toBeTruthy();
    const figures = await within(grid).findByLabelText('Figures of Grid A');
    expect(within(figures).getByText('Flat')).toBeTruthy();
    const summary = screen.getByLabelText('All bots');
    await waitFor(() => expect(summary.querySelector('[data-figure="total"] dd')?.textContent).toBe('2'));

    // Start: the dialog says what it will do, then the bot runs
    await user.click(within(grid).getByRole('button', { name: 'Start' }));
    const start = await screen.findByRole('dialog', { name: 'Start Grid A?' });
    expect(
      within(start).getByText(
        'It will trade BTCUSDT on paper (no real orders) with a budget of 250 USDT, until you stop it.',
      ),
    ).toBeTruthy();
    await user.click(within(start).getByRole('button', { name: 'Start bot' }));
    await waitFor(() => expect(screen.queryByRole('dialog')?.textContent ?? null).toBeNull(), {
      timeout: 15_000,
    });
    await waitFor(() => expect(grid.getAttribute('data-bot-state')).toBe('running'), { timeout: 15_000 });
    await waitFor(() => expect(summary.querySelector('[data-figure="running"] dd')?.textContent).toBe('1'));
    const events = await within(grid).findByRole('list', { name: 'Last events of Grid A' });
    await waitFor(() => expect(events.querySelector('[data-kind="started"]')).not.toBeNull());

    // Pause: said first; the card then says it places nothing new, and offers Resume and Stop but no Delete
    await user.click(within(grid).getByRole('button', { name: 'Pause' }));
    const pause = await screen.findByRole('dialog', { name: 'Pause Grid A?' });
    expect(
      within(pause).getByText(/^A paper bot's orders live only while it runs: they are withdrawn/),
    ).toBeTruthy();
    await user.click(within(pause).getByRole('button', { name: 'Pause bot' }));
    // The dialog hides the page from the accessibility tree until it has closed
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 15_000 });
    await waitFor(() => expect(grid.getAttribute('data-bot-state')).toBe('paused'), { timeout: 15_000 });
    expect(
      await within(grid).findByText(
        /^Paused \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\. It places nothing until you resume it/,
      ),
    ).toBeTruthy();
    expect(within(grid).queryByRole('button', { name: 'Delete Grid A' })).toBeNull();
    expect(within(grid).getByRole('link', { name: 'Edit Grid A' })).toBeTruthy();

    // Resume: a start that says it lays the orders anew
    await user.click(within(grid).getByRole('button', { name: 'Resume' }));
    const resume = await screen.findByRole('dialog', { name: 'Resume Grid A?' });
    expect(within(resume).getByText(/^It lays its paper orders anew from the price now/)).toBeTruthy();
    await user.click(within(resume).getByRole('button', { name: 'Resume bot' }));
    // The dialog hides the page from the accessibility tree until it has closed
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 15_000 });
    await waitFor(() => expect(grid.getAttribute('data-bot-state')).toBe('running'), { timeout: 15_000 });

    // Stop: the dialog says the orders are canceled; the card then says who stopped it
    await user.click(within(grid).getByRole('button', { name: 'Stop' }));
    const stop = await screen.findByRole('dialog', { name: 'Stop Grid A?' });
    expect(
      within(stop).getByText('Its paper orders will be canceled and it will place no new ones.'),
    ).toBeTruthy();
    await user.click(within(stop).getByRole('button', { name: 'Stop bot' }));
    // The dialog hides the page from the accessibility tree until it has closed
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 15_000 });
    await waitFor(() => expect(grid.getAttribute('data-bot-state')).toBe('stopped'), { timeout: 15_000 });
    expect(
      await within(grid).findByText(/^Stopped \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: Stopped by you$/),
    ).toBeTruthy();

    // The full log, on demand
    await user.click(within(grid).getByRole('button', { name: 'Show log' }));
    const log = await within(grid).findByRole('list', { name: 'Log of Grid A' });
    expect(log.querySelector('[data-kind="created"]')).not.toBeNull();
    expect(log.querySelector('[data-kind="stopped"]')).not.toBeNull();

    // Edit and clone go to the form
    expect(within(grid).getByRole('link', { name: 'Edit Grid A' }).getAttribute('href')).toMatch(
      /^\/create-bot\?edit=[0-9a-f-]{36}$/,
    );
    expect(within(grid).getByRole('link', { name: 'Clone Grid A' }).getAttribute('href')).toMatch(
      /^\/create-bot\?clone=[0-9a-f-]{36}$/,
    );

    // Delete: said plainly, then gone from the page and the server
    const dca = await card('DCA B');
    await user.click(within(dca).getByRole('button', { name: 'Delete DCA B' }));
    const remove = await screen.findByRole('dialog', { name: 'Delete DCA B?' });
    expect(within(remove).getByText(/removed for good/)).toBeTruthy();
    await user.click(within(remove).getByRole('button', { name: 'Delete bot' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /^DCA B/ })).toBeNull());
    expect((await listBots()).map((b) => b.name)).toEqual(['Grid A']);
  }, 90_000);

  it('a live start next to the trader’s own position asks again, saying why, and starts sharing when confirmed', async () => {
    const keys = page.server.demoKeys();
    await page.runtime.api.post('/api/v1/credentials/binance', {
      api_key: keys.apiKey,
      secret_key: keys.secretKey,
    });
    // The trader's own long on BTCUSDT (one-way mode: the account's one position on the symbol)
    const bought = await page.runtime.api.post('/api/futures/orders/create', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.004',
    });
    expect(bought.success).toBe(true);
    const price = Number(page.server.sim.exchange.priceControl('BTCUSDT').lastPrice);
    await createBot(page.runtime.api, {
      name: 'Live grid C',
      strategy: 'grid',
      params: {
        lower: Math.floor(price * 0.97),
        upper: Math.ceil(price * 1.03),
        gridCount: 4,
        quantityPerGrid: 0.003,
      },
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 2,
      budget: 500,
      mode: 'live',
    });
    const { user } = renderAt(page.runtime, '/active-bots', pages);
    const live = await card('Live grid C');
    await user.click(within(live).getByRole('button', { name: 'Start' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Start Live grid C?' })).getByRole('button', {
        name: 'Start bot',
      }),
    );
    // Refused: the same dialog now asks to share the symbol, with the consequence and the server's reason
    const again = await screen.findByRole('dialog', { name: 'Start Live grid C sharing BTCUSDT?' });
    expect(
      within(again).getByText(
        'It will place real orders on BTCUSDT with your Binance account (profits and losses are real), next to what is already there, up to its budget of 500 USDT, until you stop it.',
      ),
    ).toBeTruthy();
    expect(within(again).getByRole('alert').textContent).toMatch(
      /^BTCUSDT already has a long position of 0\.004 on this account\. In one-way mode the account holds one position per symbol: this bot’s orders would add to or close it/,
    );
    expect(live.getAttribute('data-bot-state')).toBe('stopped');
    await user.click(within(again).getByRole('button', { name: 'Start sharing BTCUSDT' }));
    await waitFor(() => expect(live.getAttribute('data-bot-state')).toBe('running'), { timeout: 15_000 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(within(live).getByRole('button', { name: 'Stop' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Stop Live grid C?' })).getByRole('button', {
        name: 'Stop bot',
      }),
    );
    await waitFor(() => expect(live.getAttribute('data-bot-state')).toBe('stopped'), { timeout: 15_000 });
  }, 90_000);
});
