/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
import { BacktestDetailResponseSchema, BacktestListResponseSchema } from '@kestrel/contracts/backtest';
import { BotListResponseSchema, BotSuggestionResponseSchema } from '@kestrel/contracts/bots';
import { unwrap } from '@kestrel/shared-runtime';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../../features/bots/api/create-bot';
import { renderAt, type ServerPage, startServerPage } from '../../../test/server-page';
import BotHubPage from '../bot-hub';

let page: ServerPage;
beforeAll(async () => {
  page = await startServerPage('bot-hub@example.test');
}, 60_000);
afterAll(() => page?.close());

const DAY_MS = 86_400_000;
const pages = { '/bot-hub': BotHubPage };
const runs = async () =>
  unwrap(await page.runtime.api.get('/api/v1/backtests', { schema: BacktestListResponseSchema })).data;
const bots = async () =>
  unwrap(await page.runtime.api.get('/api/v1/agents', { schema: BotListResponseSchema })).data;

describe('the bot hub', () => {
  it('backtests each runnable template once on the last 7 UTC days of BTCUSDT 1h, and reuses the runs on the next visit', async () => {
    renderAt(page.runtime, '/bot-hub', pages);
    for (const title of ['Grid', 'DCA', 'Signal rules']) {
      const card = await screen.findByRole('region', { name: title });
      expect(within(card).getByText('How it makes money')).toBeTruthy();
      expect(within(card).getByText('How it loses money')).toBeTruthy();
      expect(
        within(card)
          .getByRole('link', { name: `Use the ${title} template` })
          .getAttribute('href'),
      ).toMatch(/^\/create-bot\?strategy=(grid|dca|signal-rules)$/);
    }
    // The AI agent is a template like the others, but the hub does not pretend a 7-day backtest of it means anything
    const agent = screen.getByRole('region', { name: 'AI agent' });
    expect(
      await within(agent).findByText(
        /^No 7-day figures: the agent trains on more history than that/,
        undefined,
        {
          timeout: 10_000,
        },
      ),
    ).toBeTruthy();
    expect(within(agent).getByRole('link', { name: 'Use the AI agent template' }).getAttribute('href')).toBe(
      '/create-bot?strategy=ml-agent',
    );

    // Webhook signals trade only on alerts: no backtest of them, and the card says why
    const signals = screen.getByRole('region', { name: 'Webhook signals' });
    expect(
      within(signals).getByText(/^No 7-day figures: it trades only on alerts, and past bars carry none/),
    ).toBeTruthy();
    expect(
      within(signals).getByRole('link', { name: 'Use the Webhook signals template' }).getAttribute('href'),
    ).toBe('/create-bot?strategy=webhook-signal');

    await waitFor(async () => expect(await runs()).toHaveLength(3), { timeout: 10_000 });
    const end = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    expect(
      (await runs()).map((r) => [r.strategy, r.symbol, r.interval, r.startTime, r.endTime]).sort(),
    ).toEqual(['dca', 'grid', 'signal-rules'].map((s) => [s, 'BTCUSDT', '1h', end - 7 * DAY_MS, end]));
    // Each with the values a new bot of it starts from: the grid's range around the price now, not its default
    const grid = (await runs()).find((r) => r.strategy === 'grid');
    const detail = unwrap(
      await page.runtime.api.get(`/api/v1/backtests/${grid?.id}`, { schema: BacktestDetailResponseSchema }),
    ).data;
    const suggested = unwrap(
      await page.runtime.api.get(
        '/api/v1/agents/suggestion?strategy=grid&symbol=BTCUSDT&leverage=3&budget=100',
        {
          schema: BotSuggestionResponseSchema,
        },
      ),
    ).data;
    expect(detail.request.params.lower).toBeLessThan(suggested.price);
    expect(detail.request.params.upper).toBeGreaterThan(suggested.price);
    expect(detail.request.costs.initialBalance).toBe(suggested.budget);

    cleanup();
    renderAt(page.runtime, '/bot-hub', pages);
    await screen.findByRole('region', { name: 'Grid' });
    await waitFor(() => expect(screen.getAllByRole('status').length).toBeGreaterThan(0));
    // Give a second visit every chance to queue runs again: it must not
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await runs()).toHaveLength(3);
  }, 60_000);

  it("groups the user's bots by state and starts and stops a paper bot at once", async () => {
    await createBot(page.runtime.api, {
      name: 'Quick grid',
      strategy: 'grid',
      params: { lower: 40_000, upper: 50_000, gridCount: 2, quantityPerGrid: 0.003 },
      symbol: 'BTCUSDT',
      interval: '1h',
      leverage: 2,
      budget: 500,
      mode: 'paper',
    });
    const { user } = renderAt(page.runtime, '/bot-hub', pages);
    const stopped = await screen.findByRole('list', { name: 'Stopped bots' });
    expect(within(stopped).getByText('Quick grid')).toBeTruthy();
    await user.click(within(stopped).getByRole('button', { name: 'Start Quick grid' }));
    const running = await screen.findByRole('list', { name: 'Running bots' }, { timeout: 15_000 });
    expect(within(running).getByText('Quick grid')).toBeTruthy();
    expect((await bots())[0]?.state).toBe('running');
    // Its buttons are off until the start's answer came (the list may show it running before): a person waits too
    const stop = within(running).getByRole('button', { name: 'Stop Quick grid' }) as HTMLButtonElement;
    await waitFor(() => expect(stop.disabled).toBe(false), { timeout: 15_000 });
    await user.click(stop);
    await waitFor(async () => expect((await bots())[0]?.state).toBe('stopped'), { timeout: 15_000 });
    expect(await screen.findByRole('list', { name: 'Stopped bots' })).toBeTruthy();
  }, 60_000);
});
