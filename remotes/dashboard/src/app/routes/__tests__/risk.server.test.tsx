/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
// (test/page-server.tsx says why; the line must stay first in this file)
import { TickerResponseSchema } from '@kestrel/contracts';
import { BotResponseSchema } from '@kestrel/contracts/bots';
import type { TestServer } from '@kestrel/server/testing';
import { type KestrelRuntime, type ToastMessage, unwrap } from '@kestrel/shared-runtime';
import type { RemoteComponentLoader } from '@kestrel/shared-runtime/federation';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModalStandIn, renderWithRuntime, startPageServer } from '../../../test/page-server';
import RiskPage from '../risk';

// The page against the real server (Fastify on PGlite) and the Binance simulator (BTCUSDT; a fresh demo account
// holds 1,000 USDT): limits are stored, orders really refused or placed, the kill switch really runs

let server: TestServer;
let runtime: KestrelRuntime;
let apiKey: string;
let close: () => Promise<void>;
const toasts: ToastMessage[] = [];

beforeAll(async () => {
  ({ server, runtime, close } = await startPageServer({ email: 'risk-user@example.test' }));
  runtime.toasts$.subscribe((t) => toasts.push(t));
}, 60_000);
afterAll(() => close?.());

const renderPage = (load?: RemoteComponentLoader) => renderWithRuntime(<RiskPage />, { runtime, load });

const order = (body: Record<string, unknown>) =>
  runtime.api.post('/api/futures/orders/create', { symbol: 'BTCUSDT', ...body });
const lastPrice = async () =>
  Number(
    unwrap(await runtime.api.get('/api/v1/market/ticker/BTCUSDT', { schema: TickerResponseSchema })).data
      .lastPrice,
  );
const simOpen = () => {
  const account = server.sim.exchange.accountByKey(apiKey);
  if (!account) throw new Error('the demo account is gone');
  return {
    orders: server.sim.exchange.openOrders(account).length,
    positions: [...account.positions.values()].filter((p) => !p.amt.isZero()).length,
  };
};

describe('the risk page', () => {
  it('without a connected exchange says so, shows no figure, and its button opens the connect modal', async () => {
    const modal = connectModalStandIn();
    const { user } = renderPage(modal.load);
    const region = screen.getByRole('region', { name: 'Risk management' });
    // The page asks the server whether an exchange is connected first (a spinner until it knows)
    expect(
      await within(region).findByRole(
        'heading',
        { level: 2, name: 'No exchange connected' },
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    // The limits need no exchange: the form is there, empty
    expect(await screen.findByRole('form', { name: 'Account limits' })).toBeTruthy();
    // No account figure without an account (the form's hints name their ranges, nothing more)
    expect(within(region).queryByRole('heading', { level: 3 })).toBeNull();
    expect(within(region).queryByRole('table')).toBeNull();
    await modal.expectOpenedFrom(user, region);
  }, 60_000);

  it('saves a max-leverage limit from the form, refuses bad values, and the server then refuses a larger order', async () => {
    const keys = server.demoKeys();
    apiKey = keys.apiKey;
    expect(await runtime.exchanges.connect('binance', keys)).toMatchObject({ success: true });
    const { user } = renderPage();
    const form = await screen.findByRole('form', { name: 'Account limits' });
    await screen.findByRole('heading', { level: 3, name: 'Margin ratio' }, { timeout: 10_000 });
    expect(screen.getByRole('heading', { level: 2, name: 'No exposure yet' })).toBeTruthy();

    const leverage = within(form).getByLabelText(/^Max leverage/);
    await user.type(leverage, '200');
    await user.click(within(form).getByRole('button', { name: 'Save limits' }));
    expect(await within(form).findByText('Max leverage must be between 1 and 125')).toBeTruthy();

    await user.clear(leverage);
    await user.type(leverage, '2');
    await user.click(within(form).getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(toasts.map((t) => t.title)).toContain('Risk limits saved'));
    const usage = screen.getByRole('list', { name: 'Limit usage' });
    await waitFor(() => expect(within(usage).getByText('0 % of limit used')).toBeTruthy());
    const events = screen.getByRole('list', { name: 'Risk events' });
    expect(within(events).getByText('Limits changed: max leverage 2×')).toBeTruthy();

    // 0.05 BTC is far above 2× of 1,000 USDT
    const refused = await order({ side: 'BUY', type: 'MARKET', quantity: '0.05' });
    expect(refused).toMatchObject({
      success: false,
      status: 422,
      error: expect.stringMatching(
        /^Order refused: it would take leverage to [\d.]+×, above your max leverage limit of 2×$/,
      ),
    });
    expect(simOpen()).toEqual({ orders: 0, positions: 0 });
  }, 60_000);

  it('lists the position, and the kill switch, confirmed, cancels the order and flattens the position', async () => {
    const price = await lastPrice();
    expect(await order({ side: 'BUY', type: 'MARKET', quantity: '0.005' })).toMatchObject({ success: true });
    const below = (Math.floor(price * 0.8 * 10) / 10).toFixed(1);
    expect(
      await order({ side: 'BUY', type: 'LIMIT', quantity: '0.002', price: below, timeInForce: 'GTC' }),
    ).toMatchObject({ success: true });
    const { user } = renderPage();

    const table = await screen.findByRole('table', { name: 'Positions at risk' }, { timeout: 10_000 });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getAllByRole('cell')[0]?.textContent).toBe('BTCUSDT');
    expect(within(row).getAllByRole('cell')[1]?.textContent).toBe('Long');
    // The refusal of the previous test is in the audit, in the server's words
    expect(
      within(screen.getByRole('list', { name: 'Risk events' })).getByText(
        /^Order refused: it would take leverage to [\d.]+×, above your max leverage limit of 2×$/,
      ),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Kill switch' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop all trading?' });
    expect(within(dialog).getByText('Cancel 1 order and close 1 position at market.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel orders and close positions' }));

    const outcome = await screen.findByText(
      'Canceled 1 of 1 order, closed 1 of 1 position',
      {},
      { timeout: 10_000 },
    );
    expect(outcome).toBeTruthy();
    expect(simOpen()).toEqual({ orders: 0, positions: 0 });
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2, name: 'No exposure yet' })).toBeTruthy(),
    );
    expect(
      within(screen.getByRole('list', { name: 'Risk events' })).getByText(
        'Kill switch: canceled 1 of 1 orders, closed 1 of 1 positions',
      ),
    ).toBeTruthy();
  }, 60_000);

  it('names the running bots it stops first, and counts them in its outcome', async () => {
    const bot = unwrap(
      await runtime.api.post(
        '/api/v1/agents',
        {
          name: 'Paper grid K',
          strategy: 'grid',
          // Three levels of 0.003 BTC: orders the exchange takes, within the budget
          params: { lower: 40_000, upper: 50_000, gridCount: 2, quantityPerGrid: 0.003 },
          symbol: 'BTCUSDT',
          interval: '1m',
          leverage: 2,
          budget: 250,
          mode: 'paper',
        },
        { schema: BotResponseSchema },
      ),
    ).data;
    unwrap(await runtime.api.post(`/api/v1/agents/${bot.id}/start`, {}, { schema: BotResponseSchema }));
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Kill switch' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop all trading?' });
    await waitFor(() =>
      expect(
        within(dialog).getByText('Stop 1 running bot first (Paper grid K), each canceling its own orders.'),
      ).toBeTruthy(),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel orders and close positions' }));
    expect(
      await screen.findByText(
        'Stopped 1 bot, each canceling its own orders; then canceled 0 of 0 orders still open, closed 0 of 0 positions',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    const after = unwrap(
      await runtime.api.get(`/api/v1/agents/${bot.id}`, { schema: BotResponseSchema }),
    ).data;
    expect(after.state).toBe('stopped');
  }, 60_000);
});
