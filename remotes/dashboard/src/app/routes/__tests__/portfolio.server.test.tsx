/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
// (test/page-server.tsx says why; the line must stay first in this file)
import type { TestServer } from '@kestrel/server/testing';
import type { KestrelRuntime } from '@kestrel/shared-runtime';
import type { RemoteComponentLoader } from '@kestrel/shared-runtime/federation';
import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModalStandIn, renderWithRuntime, startPageServer } from '../../../test/page-server';
import PortfolioPage from '../portfolio';

// The page against the real server (Fastify on PGlite) and the Binance simulator (BTCUSDT near 65,000, tick 0.10,
// step 0.001, minimum notional 100 USDT; a fresh demo account holds 1,000 USDT): every order is really placed

let server: TestServer;
let runtime: KestrelRuntime;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, runtime, close } = await startPageServer({ email: 'portfolio-user@example.test' }));
}, 60_000);
afterAll(() => close?.());

const renderPage = (load?: RemoteComponentLoader) => renderWithRuntime(<PortfolioPage />, { runtime, load });

/** An account figure by its term */
const figure = (term: string) =>
  screen.queryByText(term, { selector: 'dt' })?.nextElementSibling?.textContent;
const ticket = () => screen.getByRole('form', { name: 'Order ticket' });
const dialog = () => screen.getByRole('dialog');

async function reviewOrder(
  user: ReturnType<typeof userEvent.setup>,
  order: { type?: string; quantity: string; price?: string },
) {
  const form = ticket();
  if (order.type) await user.selectOptions(within(form).getByLabelText('Type'), order.type);
  const quantity = within(form).getByLabelText(/^Quantity/);
  await user.clear(quantity);
  await user.type(quantity, order.quantity);
  if (order.price !== undefined) {
    const price = within(form).getByLabelText('Limit price');
    await user.clear(price);
    await user.type(price, order.price);
  }
  await user.click(within(form).getByRole('button', { name: 'Review order' }));
}

describe('the portfolio page', () => {
  it('without a connected exchange says so, shows no figure, and its button opens the connect modal', async () => {
    const modal = connectModalStandIn();
    const { user } = renderPage(modal.load);
    const region = screen.getByRole('region', { name: 'Portfolio' });
    expect(within(region).getByRole('heading', { level: 2, name: 'No exchange connected' })).toBeTruthy();
    expect(region.textContent).not.toMatch(/\d/);
    await modal.expectOpenedFrom(user, region);
  });

  it('places a limit order after confirming, lists it, and cancels it after confirming', async () => {
    const keys = server.demoKeys();
    expect(await runtime.exchanges.connect('binance', keys)).toMatchObject({ success: true });
    const { user } = renderPage();

    await waitFor(() => expect(figure('Margin balance')).toBe('1,000.00'), { timeout: 10_000 });
    expect(figure('Available')).toBe('1,000.00');
    expect(figure('Unrealized PnL')).toBe('0.00');
    // Balances per asset from the dashboard's portfolio call, valued in USDT
    const balances = await screen.findByRole('table', { name: 'Balances' }, { timeout: 10_000 });
    const usdt = within(within(balances).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(usdt.map((c) => c.textContent)).toEqual([
      'USDT',
      '1,000.00',
      '0.00',
      '1,000.00',
      '1,000.00',
      '1,000.00',
      '100.0%',
    ]);
    expect(screen.getByText('No open positions')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('No open orders')).toBeTruthy());

    // The symbol's tick size, checked in the browser with the rule named; nothing is sent
    await reviewOrder(user, { quantity: '0.010', price: '30000.05' });
    expect(
      await within(ticket()).findByText("Price must be a multiple of BTCUSDT's tick size 0.10"),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await reviewOrder(user, { quantity: '0.010', price: '30000.0' });
    expect(
      within(dialog()).getByText('Buy 0.010 BTCUSDT at 30,000.0, limit, good till canceled'),
    ).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 10_000 });
    expect(within(ticket()).getByRole('status').textContent).toMatch(
      /^Order placed: Buy 0\.010 BTCUSDT at 30,000\.0, limit, good till canceled \(order \d+, new\)$/,
    );
    // Typing the next order clears the last confirmation
    await user.clear(within(ticket()).getByLabelText('Limit price'));
    expect(within(ticket()).queryByRole('status')).toBeNull();

    const orders = await screen.findByRole('table', { name: 'Open orders' }, { timeout: 10_000 });
    const row = within(orders).getAllByRole('row')[1] as HTMLElement;
    expect(row.textContent).toContain('30,000.0');
    expect(row.textContent).toContain('0.000 / 0.010');
    await user.click(within(row).getByRole('button', { name: /^Cancel buy limit BTCUSDT order \d+$/ }));
    expect(
      within(dialog()).getByText('Cancel the buy limit order for 0.010 BTCUSDT at 30,000.0'),
    ).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('No open orders', {}, { timeout: 10_000 })).toBeTruthy();
  }, 60_000);

  it("shows the exchange's reason for an order below the minimum notional and changes nothing else", async () => {
    const { user } = renderPage();
    expect(await screen.findByText('No open positions', {}, { timeout: 10_000 })).toBeTruthy();
    await reviewOrder(user, { type: 'MARKET', quantity: '0.001' });
    expect(within(dialog()).getByText('Buy 0.001 BTCUSDT at market')).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Place order' }));
    const alert = await within(dialog()).findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/^Binance refused it: .*notional must be no smaller than 100/);
    await user.click(within(dialog()).getByRole('button', { name: 'Back' }));
    expect(within(ticket()).getByRole('alert').textContent).toBe(alert.textContent);
    // The form keeps what was typed; no position appeared
    expect(within(ticket()).getByLabelText(/^Quantity/)).toHaveProperty('value', '0.001');
    expect(screen.getByText('No open positions')).toBeTruthy();
  }, 60_000);

  it('opens a position at market, shows its liquidation price, and closes it at market after confirming', async () => {
    // 100 USDT in cross margin: a 0.002 BTC long has a liquidation price (with 1,000 USDT it would have none)
    const keys = server.demoKeys({ balances: { USDT: '100' } });
    expect(await runtime.exchanges.connect('binance', keys)).toMatchObject({ success: true });
    const { user } = renderPage();
    expect(await screen.findByText('No open positions', {}, { timeout: 10_000 })).toBeTruthy();
    await reviewOrder(user, { type: 'MARKET', quantity: '0.002' });
    await user.click(within(dialog()).getByRole('button', { name: 'Place order' }));

    const positions = await screen.findByRole('table', { name: 'Positions' }, { timeout: 10_000 });
    const header = within(positions)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.replace(/[▲▼↕]/g, ''));
    expect(header).toEqual([
      'Symbol',
      'Size',
      'Entry',
      'Mark',
      'Liq. price',
      'Margin',
      'Leverage',
      'PnL (ROE)',
      'Close',
    ]);
    const cells = within(within(positions).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(cells.slice(0, 2).map((c) => c.textContent)).toEqual(['BTCUSDTLong', '0.002 BTC']);
    // A long at 20x is liquidated well below its entry: a real price with the symbol's one decimal
    expect(cells[4]?.textContent).toMatch(/^\d{1,3}(,\d{3})*\.\d$/);
    const entry = Number(cells[2]?.textContent?.replace(/,/g, ''));
    expect(Number(cells[4]?.textContent?.replace(/,/g, ''))).toBeLessThan(entry);
    expect(screen.getByRole('figure', { name: 'Margin allocation' }).textContent).toContain('BTCUSDT');

    // An open order on the symbol holds margin too; the position's leverage is still the exchange's default 20x
    await reviewOrder(user, { type: 'LIMIT', quantity: '0.002', price: '50000.0' });
    await user.click(within(dialog()).getByRole('button', { name: 'Place order' }));
    await screen.findByRole('table', { name: 'Open orders' }, { timeout: 10_000 });
    expect(
      within(positions).getByRole('button', { name: /^Change leverage of BTCUSDT long/ }).textContent,
    ).toBe('20x');

    // Leverage: the sentence names both values; the margin shown follows the exchange's answer
    await user.click(
      within(positions).getByRole('button', { name: /^Change leverage of BTCUSDT long, now \d+x$/ }),
    );
    const leverage = within(dialog()).getByLabelText('Leverage');
    await user.clear(leverage);
    await user.type(leverage, '5');
    expect(within(dialog()).getByText('Set BTCUSDT leverage from 20x to 5x')).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Set leverage' }));
    await waitFor(
      () =>
        expect(
          within(positions).getByRole('button', { name: /^Change leverage of BTCUSDT long/ }).textContent,
        ).toBe('5x'),
      { timeout: 10_000 },
    );

    // A reduce-only limit close starts at the mark price on the tick; the price is checked against the tick size
    await user.click(within(positions).getByRole('button', { name: 'Limit close BTCUSDT long' }));
    expect(
      within(dialog()).getByText(
        /^Close 0\.002 BTCUSDT long with a limit sell at \d{2},\d{3}\.\d, reduce-only$/,
      ),
    ).toBeTruthy();
    const price = within(dialog()).getByLabelText('Limit price');
    await user.clear(price);
    await user.type(price, '70000.05');
    expect(within(dialog()).getByText("Price must be a multiple of BTCUSDT's tick size 0.10")).toBeTruthy();
    expect(within(dialog()).getByRole('button', { name: 'Place close order' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.click(within(dialog()).getByRole('button', { name: 'Back' }));

    await user.click(within(positions).getByRole('button', { name: 'Market close BTCUSDT long' }));
    expect(within(dialog()).getByText('Close 0.002 BTCUSDT long at market, reduce-only')).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Close position' }));
    expect(await screen.findByText('No open positions', {}, { timeout: 10_000 })).toBeTruthy();
  }, 60_000);

  it('says so when the account cannot be read, and loads it on Retry', async () => {
    const fault = server.sim.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/fapi/v3/positionRisk',
      status: 500,
    });
    const { user } = renderPage();
    const alert = await screen.findByRole('alert', {}, { timeout: 20_000 });
    expect(alert.textContent).toMatch(/^Could not load your account: /);
    server.sim.faults.remove(fault.id);
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(figure('Margin balance')).toMatch(/^\d+\.\d{2}$/), { timeout: 10_000 });
  }, 60_000);

  it('shows "status unknown" for an order whose answer was lost, and the order exists once', async () => {
    // The exchange takes the order but its answer is lost, and the lookup by client order id fails too
    const lost = server.sim.faults.add({
      kind: 'error',
      method: 'POST',
      path: '/fapi/v1/order',
      phase: 'after',
      status: 503,
    });
    const lookup = server.sim.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/fapi/v1/order',
      status: 500,
    });
    const { user } = renderPage();
    // The previous test left a buy at 50,000.0 open
    expect(await screen.findByRole('table', { name: 'Open orders' }, { timeout: 10_000 })).toBeTruthy();
    await reviewOrder(user, { type: 'LIMIT', quantity: '0.002', price: '51000.0' });
    await user.click(within(dialog()).getByRole('button', { name: 'Place order' }));
    const alert = await within(dialog()).findByRole('alert', {}, { timeout: 30_000 });
    expect(alert.textContent).toMatch(/^Status unknown: .*Kestrel does not resend it\.$/);
    expect(within(dialog()).getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', true);

    // Open orders say so while the server cannot learn the order's fate (its lookups keep failing)
    await user.click(within(dialog()).getByRole('button', { name: 'Back' }));
    const unknown = await screen.findByRole(
      'list',
      { name: 'Orders with status unknown' },
      { timeout: 10_000 },
    );
    expect(within(unknown).getByRole('status').textContent).toMatch(
      /^Status unknown: Buy 0\.002 BTCUSDT.*51,000\.0.*will not send it again\.$/,
    );

    // The exchange answers again: the server's next lookup finds the order, and the notice goes
    server.sim.faults.remove(lost.id);
    server.sim.faults.remove(lookup.id);
    await waitFor(
      () => expect(screen.queryByRole('list', { name: 'Orders with status unknown' })).toBeNull(),
      {
        timeout: 20_000,
      },
    );
    // The lists are read again: the order is there, once
    const orders = await screen.findByRole('table', { name: 'Open orders' }, { timeout: 10_000 });
    await waitFor(
      () =>
        expect(
          within(orders)
            .getAllByRole('row')
            .filter((r) => r.textContent?.includes('51,000.0')).length,
        ).toBe(1),
      { timeout: 10_000 },
    );
  }, 90_000);
});
