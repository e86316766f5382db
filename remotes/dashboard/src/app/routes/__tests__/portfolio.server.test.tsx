/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
// (test/page-server.tsx says why; the line must stay first in this file)
import { FuturesOrdersResponseSchema } from '@kestrel/contracts';
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

/** An account figure by its term (the account's cards, not a position's) */
const figure = (term: string) =>
  screen.queryAllByText(term, { selector: 'dl[aria-label="Account"] dt' })[0]?.nextElementSibling
    ?.textContent;
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
    expect(
      await within(region).findByRole(
        'heading',
        { level: 2, name: 'No exchange connected' },
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    expect(region.textContent).not.toMatch(/\d/);
    await modal.expectOpenedFrom(user, region);
  }, 60_000);

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

  it('a post-only buy above the market is refused by Binance as it would take, and nothing is placed', async () => {
    const { user } = renderPage();
    expect(await screen.findByText('No open orders', {}, { timeout: 10_000 })).toBeTruthy();
    // The account's terms for the symbol, from the exchange, beside the ticket
    const leverage = await screen.findByRole(
      'button',
      { name: 'Change leverage of BTCUSDT, now 20x' },
      { timeout: 10_000 },
    );
    expect(leverage.parentElement?.textContent).toBe('Cross margin·Leverage20x');
    const form = ticket();
    await user.selectOptions(within(form).getByLabelText('Type'), 'LIMIT');
    await user.selectOptions(within(form).getByLabelText('Time in force'), 'GTX');
    await reviewOrder(user, { quantity: '0.002', price: '66000.0' });
    // What it is worth, the margin it takes at the account's leverage for the symbol, and how long it works
    expect(within(ticket()).getByText(/^Order value/).textContent).toBe(
      'Order value 132.00 USDT · margin 6.60 USDT at 20x',
    );
    // The server's estimate of where the position it opens would be liquidated (cross: the whole 1,000 USDT)
    const estimate = await within(ticket()).findByText(/^Est\. liquidation price/, {}, { timeout: 10_000 });
    expect(estimate.textContent).toMatch(
      /^Est\. liquidation price none \(cross margin, by Binance's formula\)$/,
    );

    expect(
      within(dialog()).getByText(
        'Buy 0.002 BTCUSDT at 66,000.0, limit, post-only (refused if it would fill at once)',
      ),
    ).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Place order' }));
    const alert = await within(dialog()).findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/^Binance refused it: .*Post Only order will be rejected/);
    await user.click(within(dialog()).getByRole('button', { name: 'Back' }));
    expect(screen.getByText('No open orders')).toBeTruthy();
  }, 60_000);

  it('sizes an order in USDT: the quantity follows the value at the limit price, rounded to the lot step', async () => {
    const { user } = renderPage();
    const form = await screen.findByRole('form', { name: 'Order ticket' }, { timeout: 10_000 });
    await user.selectOptions(within(form).getByLabelText('Type'), 'LIMIT');
    await user.clear(within(form).getByLabelText('Limit price'));
    await user.type(within(form).getByLabelText('Limit price'), '50000.0');
    await user.click(within(form).getByRole('radio', { name: 'USDT' }));
    await user.type(within(form).getByLabelText('Size (USDT)'), '200');
    await waitFor(() => expect(within(form).getByLabelText(/^Quantity/)).toHaveProperty('value', '0.004'));
    await user.click(within(form).getByRole('button', { name: 'Review order' }));
    expect(
      within(dialog()).getByText('Buy 0.004 BTCUSDT at 50,000.0, limit, good till canceled'),
    ).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Back' }));
    // A quarter of the 1,000 USDT available at the default 20x: 5,000 USDT of order, 0.100 BTC at 50,000
    await user.click(within(form).getByRole('radio', { name: '% of available' }));
    await user.selectOptions(within(form).getByLabelText('Share of the available margin'), '25');
    await waitFor(() => expect(within(form).getByLabelText(/^Quantity/)).toHaveProperty('value', '0.100'));
    expect(within(form).getByText(/^250\.00 USDT of margin at 20x: 5,000\.00 USDT of order$/)).toBeTruthy();
    await user.click(within(form).getByRole('radio', { name: 'BTC' }));
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
    // One snapshot: the cards and the USDT balance say the same open PnL and margin balance, whatever the mark did
    const usdtRow = () =>
      within(within(screen.getByRole('table', { name: 'Balances' })).getAllByRole('row')[1] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(usdtRow()[2]).toBe(figure('Unrealized PnL'));
    expect(usdtRow()[3]).toBe(figure('Margin balance'));

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

  it("sets a position's take-profit and stop-loss on the exchange, moves the stop, removes the take-profit", async () => {
    const { user } = renderPage();
    expect(await screen.findByText('No open positions', {}, { timeout: 10_000 })).toBeTruthy();
    await reviewOrder(user, { type: 'MARKET', quantity: '0.002' });
    await user.click(within(dialog()).getByRole('button', { name: 'Place order' }));
    const positions = await screen.findByRole('table', { name: 'Positions' }, { timeout: 10_000 });
    /** What the exchange holds, as the server reads it from there: close-position conditional orders, type → trigger */
    const onExchange = async () => {
      const res = await runtime.api.get('/api/futures/orders/active', {
        schema: FuturesOrdersResponseSchema,
      });
      if (!res.success) throw new Error(res.error);
      return Object.fromEntries(
        res.data.data
          .filter((o) => o.kind === 'conditional' && o.closePosition && o.side === 'SELL')
          .map((o) => [o.type, Number(o.triggerPrice).toFixed(1)]),
      );
    };
    const expectOnExchange = (expected: Record<string, string>) =>
      waitFor(async () => expect(await onExchange()).toEqual(expected), { timeout: 10_000 });
    /** The position's TP/SL button: it opens the dialog, and its text says what is set */
    const tpslButton = () =>
      within(positions).getByRole('button', { name: /^Take-profit and stop-loss of BTCUSDT long/ });
    const expectTpsl = (shown: RegExp) =>
      waitFor(() => expect(tpslButton().textContent).toMatch(shown), { timeout: 10_000 });
    const row = within(positions).getAllByRole('row')[1] as HTMLElement;
    const mark = Number(within(row).getAllByRole('cell')[3]?.textContent?.replace(/,/g, ''));
    const tp = (Math.round(mark * 1.1 * 10) / 10).toFixed(1);
    const sl = (Math.round(mark * 0.9 * 10) / 10).toFixed(1);
    const lower = (Math.round(mark * 0.85 * 10) / 10).toFixed(1);

    const open = async () => {
      await user.click(tpslButton());
      return {
        tpField: within(dialog()).getByLabelText(/^Take-profit/),
        slField: within(dialog()).getByLabelText(/^Stop-loss/),
      };
    };
    const save = async () => {
      await user.click(within(dialog()).getByRole('button', { name: 'Save TP/SL' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 10_000 });
    };
    let { tpField, slField } = await open();
    // The wrong side of the mark is refused before anything is sent
    await user.type(tpField, sl);
    expect(within(dialog()).getByText("A long's take-profit must be above the mark price")).toBeTruthy();
    await user.clear(tpField);
    await user.type(tpField, tp);
    await user.type(slField, sl);
    expect(
      within(dialog()).getByText(
        /^BTCUSDT long: take-profit at [\d,.]+, stop-loss at [\d,.]+; each closes the whole position/,
      ),
    ).toBeTruthy();
    await save();
    await expectOnExchange({ TAKE_PROFIT_MARKET: tp, STOP_MARKET: sl });
    await expectTpsl(/^TP [\d,.]+ \/ SL [\d,.]+$/);

    // Move the stop, drop the take-profit: the exchange holds exactly the new stop
    ({ tpField, slField } = await open());
    await user.clear(tpField);
    await user.clear(slField);
    await user.type(slField, lower);
    expect(
      within(dialog()).getByText(/^BTCUSDT long: take-profit removed, stop-loss moved to [\d,.]+;/),
    ).toBeTruthy();
    await save();
    await expectOnExchange({ STOP_MARKET: lower });

    // Leave nothing behind for the next test: the stop removed, the position closed
    await expectTpsl(/^TP – \/ SL/);
    ({ slField } = await open());
    await user.clear(slField);
    await save();
    await expectOnExchange({});
    // Half of it first: 0.001 of the 0.002, rounded to the lot step, then the rest
    await user.click(within(positions).getByRole('button', { name: 'Market close BTCUSDT long' }));
    await user.selectOptions(within(dialog()).getByLabelText('Part of the position'), '50');
    expect(
      within(dialog()).getByText('Close 0.001 of 0.002 BTCUSDT long at market, reduce-only'),
    ).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Close position' }));
    await waitFor(
      () =>
        expect(
          within(within(positions).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell')[1]
            ?.textContent,
        ).toMatch(/^0\.001/),
      { timeout: 10_000 },
    );
    await user.click(within(positions).getByRole('button', { name: 'Market close BTCUSDT long' }));
    expect(within(dialog()).getByText('Close 0.001 BTCUSDT long at market, reduce-only')).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Close position' }));
    expect(await screen.findByText('No open positions', {}, { timeout: 10_000 })).toBeTruthy();
  }, 90_000);

  it('says so when the account cannot be read, and loads it on Retry', async () => {
    const fault = server.sim.faults.add({
      kind: 'error',
      method: 'GET',
      path: '/fapi/v3/positionRisk',
      status: 500,
    });
    // The server serves a user's account figures again for a few seconds: the previous test's are still kept until
    // its read fails too
    await waitFor(
      async () => expect((await runtime.api.get('/api/v1/dashboard/portfolio')).success).toBe(false),
      { timeout: 20_000 },
    );
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

  it('an entry with TP/SL attached: the review says so, and once it fills both are on the exchange', async () => {
    // A fresh account: flat, so its margin mode could change until the entry fills
    const keys = server.demoKeys();
    expect(await runtime.exchanges.connect('binance', keys)).toMatchObject({ success: true });
    const { user } = renderPage();
    expect(await screen.findByText('No open positions', {}, { timeout: 10_000 })).toBeTruthy();
    const form = ticket();
    await user.selectOptions(within(form).getByLabelText('Type'), 'MARKET');
    // On the wrong side of the entry: said in the ticket, nothing sent
    await user.type(within(form).getByLabelText('Take-profit'), '60000.0');
    await user.type(within(form).getByLabelText('Stop-loss'), '58000.05');
    await reviewOrder(user, { quantity: '0.002' });
    expect(
      await within(form).findByText("Stop-loss must be a multiple of BTCUSDT's tick size 0.10"),
    ).toBeTruthy();
    await user.clear(within(form).getByLabelText('Take-profit'));
    await user.type(within(form).getByLabelText('Take-profit'), '70000.0');
    await user.clear(within(form).getByLabelText('Stop-loss'));
    await user.type(within(form).getByLabelText('Stop-loss'), '58000.0');
    await user.click(within(form).getByRole('button', { name: 'Review order' }));
    expect(
      within(await screen.findByRole('dialog')).getByText(
        'Buy 0.002 BTCUSDT at market; once it fills, a take-profit at 70,000.0 and a stop-loss at 58,000.0 ' +
          'close the whole position at market when the mark price reaches them',
      ),
    ).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 10_000 });

    // On the exchange: both close-position orders at the mark price, on the closing side
    const account = server.sim.exchange.accountByKey(keys.apiKey);
    const waiting = [...(account?.algoOrders.values() ?? [])]
      .filter((o) => o.status === 'NEW')
      .map((o) => `${o.side} ${o.orderType} ${o.triggerPrice.toFixed(1)} ${o.closePosition} ${o.workingType}`)
      .sort();
    expect(waiting).toEqual([
      'SELL STOP_MARKET 58000.0 true MARK_PRICE',
      'SELL TAKE_PROFIT_MARKET 70000.0 true MARK_PRICE',
    ]);
    // And on the page: the position's TP/SL among its open orders
    const orders = await screen.findByRole('table', { name: 'Open orders' }, { timeout: 10_000 });
    await waitFor(() => expect(within(orders).getAllByRole('row')).toHaveLength(3), { timeout: 10_000 });

    // Binance allows no margin-mode switch with a position open, and says so in the dialog
    await user.click(screen.getByRole('button', { name: 'Change margin mode of BTCUSDT, now Cross margin' }));
    const switching = screen.getByRole('dialog', { name: 'Change margin mode' });
    await user.click(within(switching).getByRole('button', { name: 'Switch to isolated' }));
    expect((await within(switching).findByRole('alert', {}, { timeout: 10_000 })).textContent).toMatch(
      /Margin type cannot be changed if there exists position/,
    );
  }, 60_000);
});
