/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
import { BotListResponseSchema } from '@kestrel/contracts/bots';
import { unwrap } from '@kestrel/shared-runtime';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { location, renderAt, type ServerPage, startServerPage } from '../../../test/server-page';
import ActiveBotsPage from '../active-bots';
import CreateBotPage from '../create-bot';

let page: ServerPage;
beforeAll(async () => {
  page = await startServerPage('create-bot@example.test');
}, 60_000);
afterAll(() => page?.close());

const pages = { '/create-bot': CreateBotPage, '/active-bots': ActiveBotsPage };
type User = ReturnType<typeof userEvent.setup>;
const listBots = async () =>
  unwrap(await page.runtime.api.get('/api/v1/agents', { schema: BotListResponseSchema })).data;

const form = () => screen.findByRole('form', { name: /^(Create|Edit|Clone) bot$/ });
const stepHeading = (name: string) => screen.findByRole('heading', { level: 2, name });

async function fill(user: User, label: RegExp | string, value: string) {
  const input = within(await form()).getByLabelText(label);
  await user.clear(input);
  if (value) await user.type(input, value);
}

async function next(user: User) {
  await user.click(within(await form()).getByRole('button', { name: /^Next: / }));
}

describe('the create-bot form', () => {
  it('checks each step with the contract and the strategy before the next opens, then saves a stopped paper bot', async () => {
    const { user } = renderAt(page.runtime, '/create-bot?strategy=grid', pages);
    const f = await form();
    expect((within(f).getByRole('radio', { name: /Futures grid/ }) as HTMLInputElement).checked).toBe(true);

    // Strategy: a name is required
    await fill(user, 'Name', '');
    await next(user);
    expect(await within(f).findByText('name is required')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Strategy' })).toBeTruthy();
    await fill(user, 'Name', 'Range grid');
    await next(user);

    // Market: the contract's symbol and leverage rules
    await stepHeading('Market');
    await fill(user, 'Symbol', 'x');
    await fill(user, 'Leverage', '200');
    await next(user);
    expect(await within(f).findByText('leverage must be at most 125')).toBeTruthy();
    expect(within(f).getByText('symbol must be 3-20 letters or digits, e.g. BTCUSDT')).toBeTruthy();
    await fill(user, 'Symbol', 'btcusdt');
    await fill(user, 'Leverage', '10');
    await next(user);

    // Parameters: the grid's own schema; its leverage is the bot's, asked once in the market step
    await stepHeading('Parameters');
    // The template's parameters come from the market: a range around BTCUSDT's price now, sizes it takes
    const note = await within(f).findByRole('note', { name: 'Values from the market' });
    await waitFor(() => expect(note.textContent).toMatch(/^Set from the market: BTCUSDT at \d/));
    const price = Number(/BTCUSDT at ([\d.]+)/.exec(note.textContent ?? '')?.[1]);
    const shown = (label: RegExp) => Number((within(f).getByLabelText(label) as HTMLInputElement).value);
    expect(shown(/^Lower/)).toBeLessThan(price);
    expect(shown(/^Upper/)).toBeGreaterThan(price);
    expect(shown(/^Grid count/)).toBe(10);
    expect(within(f).queryByLabelText(/^Leverage/)).toBeNull();
    await fill(user, /^Lower/, '60000');
    await fill(user, /^Upper/, '50000');
    await next(user);
    expect(await within(f).findByText('lower must be below upper')).toBeTruthy();
    // Fixed from the other field, the error on Lower clears as well
    await fill(user, /^Upper/, '70000');
    await waitFor(() => expect(within(f).queryByText('lower must be below upper')).toBeNull());
    await fill(user, /^Upper/, '50000');
    await fill(user, /^Lower/, '40000');
    // Three levels of 0.003 BTC: each above the exchange's 100 USDT minimum, within the budget
    await fill(user, /^Grid count/, '2');
    await fill(user, /^Quantity per grid/, '0.003');
    // Under the fields as they are typed: the orders these values make, drawn by the server
    await waitFor(
      () => {
        const drawn = within(f).getByRole('region', { name: 'Its orders at the price now' });
        const prices = within(drawn)
          .getAllByRole('row')
          .slice(1)
          .map((r) => r.querySelectorAll('td')[1]?.textContent);
        expect(prices).toEqual(['50,000.00', '45,000.00', '40,000.00']);
      },
      { timeout: 10_000 },
    );
    await next(user);

    // Budget and risk: the contract's bounds, an empty limit is no limit
    await stepHeading('Budget and risk');
    await fill(user, /^Budget/, '5');
    await fill(user, /^Max drawdown/, '150');
    await next(user);
    expect(await within(f).findByText('budget must be at least 10 USDT')).toBeTruthy();
    expect(within(f).getByText('Max drawdown must be between 0.01 and 100')).toBeTruthy();
    await fill(user, /^Budget/, '250');
    await fill(user, /^Max drawdown/, '20');
    await next(user);

    // Mode: live needs an exchange; this user has none
    await stepHeading('Mode');
    expect((within(f).getByRole('radio', { name: /^Live/ }) as HTMLInputElement).disabled).toBe(true);
    expect(within(f).getByText('Live mode needs a connected exchange account.')).toBeTruthy();
    expect(within(f).getByRole('button', { name: 'Connect exchange' })).toBeTruthy();
    await next(user);

    // Review: everything chosen, in words
    await stepHeading('Review');
    const review = f.querySelector('dl[aria-label="Your bot"]');
    const text = review?.textContent ?? '';
    expect(text).toContain('Range grid');
    // Every parameter in the words of its field, fractions in percent
    expect(text).toContain('Lower40000');
    expect(text).toContain('Grid count2');
    expect(text).toContain('Quantity per grid0.003');
    expect(text).toContain('Stop outside %0');
    expect(text).toContain('BTCUSDT · 1h bars · 10× leverage');
    expect(text).toContain('250.00 USDT');
    expect(text).toContain('Max drawdown20 %');
    expect(text).toContain('Paper: simulated orders on live prices');
    expect(within(f).getByRole('button', { name: 'Run a quick backtest' })).toBeTruthy();
    // Its orders at the price now, from the server: levels 40,000, 45,000 and 50,000 of 0.003 BTC; one round trip
    // earns 0.003 × 5,000 = 15 USDT less both makers' 0.02 %
    const plan = within(f).getByRole('region', { name: 'Its orders at the price now' });
    const figures = await within(plan).findByLabelText("Its orders' figures");
    const figure = (key: string) => figures.querySelector(`[data-figure="${key}"]`)?.textContent ?? '';
    expect(figure('price')).toMatch(/^Price now[\d,.]+$/);
    expect(figure('level-profit')).toMatch(/^Per level\+14\.9\d to \+14\.9\d USDT/);
    expect(figure('margin')).toMatch(/^Margin needed[\d,.]+ USDTof a 250\.00 USDT budget, at 10×$/);
    const orderRows = within(within(plan).getByRole('table')).getAllByRole('row').slice(1);
    expect(orderRows.map((r) => r.querySelectorAll('td')[1]?.textContent)).toEqual([
      '50,000.00',
      '45,000.00',
      '40,000.00',
    ]);

    await user.click(within(f).getByRole('button', { name: 'Create bot' }));
    await waitFor(() => expect(location.current).toMatch(/^\/active-bots#bot-[0-9a-f-]{36}$/), {
      timeout: 10_000,
    });
    const bots = await listBots();
    expect(bots).toHaveLength(1);
    expect(bots[0]).toMatchObject({
      name: 'Range grid',
      strategy: 'grid',
      symbol: 'BTCUSDT',
      leverage: 10,
      budget: 250,
      mode: 'paper',
      state: 'stopped',
      riskLimits: { maxNotional: null, dailyLossLimit: null, maxDrawdownPercent: 20 },
      params: expect.objectContaining({ lower: 40_000, upper: 50_000, leverage: 10 }),
    });
    expect(page.toasts.map((t) => t.title)).toContain('Range grid created');
  }, 60_000);

  it('asks for an explicit confirmation before a live bot', async () => {
    expect(await page.runtime.exchanges.connect('binance', page.server.demoKeys())).toMatchObject({
      success: true,
    });
    const { user } = renderAt(page.runtime, '/create-bot?strategy=dca', pages);
    const f = await form();
    for (const step of ['Market', 'Parameters', 'Budget and risk', 'Mode']) {
      await next(user);
      await stepHeading(step);
    }
    const live = within(f).getByRole('radio', { name: /^Live/ }) as HTMLInputElement;
    await waitFor(() => expect(live.disabled).toBe(false));
    await user.click(live);
    expect(within(f).getByRole('alert').textContent).toContain('This bot will trade real money.');
    await next(user);
    expect(
      await within(f).findByText('Confirm that this bot places real orders with your Binance account'),
    ).toBeTruthy();
    await user.click(within(f).getByRole('checkbox', { name: /I understand this bot places real orders/ }));
    await next(user);
    await stepHeading('Review');
    expect(within(f).getByText('Live: real orders')).toBeTruthy();
  }, 60_000);

  it("shows the server's refusal under the field it names, back on that field's step", async () => {
    const { user } = renderAt(page.runtime, '/create-bot?strategy=signal-rules', pages);
    const f = await form();
    await next(user);
    await stepHeading('Market');
    // Well-formed, so the browser lets it through; the server checks it against the exchange's list
    await fill(user, 'Symbol', 'ZZZUSDT');
    for (const step of ['Parameters', 'Budget and risk', 'Mode', 'Review']) {
      await next(user);
      await stepHeading(step);
    }
    await user.click(within(f).getByRole('button', { name: 'Create bot' }));
    await stepHeading('Market');
    const symbol = within(f).getByLabelText('Symbol');
    await waitFor(() => expect(symbol.getAttribute('aria-invalid')).toBe('true'));
    expect(within(f).getByText('symbol: ZZZUSDT is not listed on the exchange')).toBeTruthy();
    expect(location.current).toBe('/create-bot?strategy=signal-rules');
  }, 60_000);

  it('edits a stopped bot in place, and clones one into a new stopped bot, through the same form', async () => {
    const [original] = await listBots();
    if (!original) throw new Error('the first test saves a bot');
    const edit = renderAt(page.runtime, `/create-bot?edit=${original.id}`, pages);
    let f = await screen.findByRole('form', { name: 'Edit bot' });
    expect((within(f).getByLabelText('Name') as HTMLInputElement).value).toBe('Range grid');
    for (const step of ['Market', 'Parameters']) {
      await next(edit.user);
      await stepHeading(step);
    }
    expect((within(f).getByLabelText(/^Lower/) as HTMLInputElement).value).toBe('40000');
    await next(edit.user);
    await stepHeading('Budget and risk');
    await fill(edit.user, /^Budget/, '300');
    for (const step of ['Mode', 'Review']) {
      await next(edit.user);
      await stepHeading(step);
    }
    await edit.user.click(within(f).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(location.current).toBe(`/active-bots#bot-${original.id}`), {
      timeout: 10_000,
    });
    expect(await listBots()).toEqual([
      expect.objectContaining({
        id: original.id,
        budget: 300,
        params: expect.objectContaining({ lower: 40_000 }),
      }),
    ]);
    cleanup();

    const clone = renderAt(page.runtime, `/create-bot?clone=${original.id}`, pages);
    f = await screen.findByRole('form', { name: 'Clone bot' });
    expect((within(f).getByLabelText('Name') as HTMLInputElement).value).toBe('Range grid (copy)');
    for (const step of ['Market', 'Parameters', 'Budget and risk', 'Mode', 'Review']) {
      await next(clone.user);
      await stepHeading(step);
    }
    await clone.user.click(within(f).getByRole('button', { name: 'Create bot' }));
    await waitFor(() => expect(location.current).toMatch(/^\/active-bots#bot-/), { timeout: 10_000 });
    const copy = (await listBots()).find((b) => b.id !== original.id);
    expect(copy).toMatchObject({
      name: 'Range grid (copy)',
      state: 'stopped',
      budget: 300,
      params: expect.objectContaining({ lower: 40_000, upper: 50_000 }),
    });
  }, 60_000);

  it('a webhook-signal bot is live only, says it trades on alerts, and shows no order plan or backtest that would read "0 trades"', async () => {
    const { user } = renderAt(page.runtime, '/create-bot?strategy=webhook-signal', pages);
    const f = await form();
    expect((within(f).getByRole('radio', { name: /^Webhook signals/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(within(f).getByRole('note', { name: 'Trades on alerts' }).textContent).toMatch(
      /Its webhook URL and secret are made on its card on Active bots after you save it\.$/,
    );
    await next(user);
    await stepHeading('Market');
    await next(user);
    await stepHeading('Parameters');
    // Nothing stands at its start: no order plan drawn, a sentence instead
    expect(
      await within(f).findByText(/^No orders stand at its start: each buy or sell alert sends one/),
    ).toBeTruthy();
    expect(within(f).queryByRole('region', { name: 'Its orders at the price now' })).toBeNull();
    for (const step of ['Budget and risk', 'Mode']) {
      await next(user);
      await stepHeading(step);
    }
    // Live is chosen and paper is not offered, with the reason
    const paper = within(f).getByRole('radio', { name: /^Paper/ }) as HTMLInputElement;
    expect(paper.disabled).toBe(true);
    expect(paper.closest('label')?.textContent).toContain('Webhook signals trade live only');
    expect((within(f).getByRole('radio', { name: /^Live/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(f).getByRole('checkbox', { name: /I understand this bot places real orders/ }));
    await next(user);
    await stepHeading('Review');
    expect(within(f).getByText('Live: real orders')).toBeTruthy();
    expect(within(f).getByRole('note', { name: 'No quick backtest' }).textContent).toMatch(
      /^No quick backtest: it trades only on the alerts posted to its webhook/,
    );
    expect(within(f).queryByRole('button', { name: 'Run a quick backtest' })).toBeNull();
    await user.click(within(f).getByRole('button', { name: 'Create bot' }));
    await waitFor(() => expect(location.current).toMatch(/^\/active-bots#bot-/), { timeout: 10_000 });
    expect((await listBots()).find((b) => b.strategy === 'webhook-signal')).toMatchObject({
      mode: 'live',
      state: 'stopped',
    });
  }, 60_000);
});
