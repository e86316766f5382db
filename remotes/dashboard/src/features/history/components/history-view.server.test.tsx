/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
// (test/page-server.tsx says why; the line must stay first in this file)
import type { TestServer } from '@kestrel/server/testing';
import type { KestrelRuntime } from '@kestrel/shared-runtime';
import { createQueryClient } from '@kestrel/shared-runtime/query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithRuntime, startPageServer } from '../../../test/page-server';
import { HistoryView } from './history-view';

// The history view against the real server (Fastify on PGlite) with 10,000 fills seeded in its database: the
// server filters, sorts and pages; the table renders only a window of rows and asks for more as it scrolls

const ROWS = 10_000;
const NOW = Date.parse('2026-03-01T12:00:00Z');
let server: TestServer;
let runtime: KestrelRuntime;
let userId: string;
let close: () => Promise<void>;

beforeAll(async () => {
  // happy-dom lays nothing out: give the scroll frame the size a browser would
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(520);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  ({ server, runtime, userId, close } = await startPageServer({ email: 'history-user@example.test' }));
  // Fills one minute apart back from NOW, on the testnet account the user is on: BTCUSDT, ETHUSDT and SOLUSDT in turn, buys and sells alternating
  await server.database.db.query(
    `INSERT INTO trade_history (user_id, environment, symbol, trade_id, order_id, side, position_side, price,
                                quantity, quote_quantity, realized_pnl, commission, commission_asset, maker, time)
     SELECT $1, 'testnet', (ARRAY['BTCUSDT', 'ETHUSDT', 'SOLUSDT'])[1 + i % 3], i, 100000 + i,
            CASE WHEN i % 2 = 0 THEN 'BUY' ELSE 'SELL' END, 'BOTH', (1000 + i)::numeric, 0.010, (10 + i / 100.0),
            CASE WHEN i % 2 = 0 THEN 0 ELSE 0.5 END, 0.001, 'USDT', i % 4 = 0,
            to_timestamp(($2::float8 - i * 60000) / 1000)
       FROM generate_series(1, $3::int) AS i`,
    [userId, NOW, ROWS],
  );
  // Income as Binance books it: a fee with all its decimals, and the type Binance misspells
  await server.database.db.query(
    `INSERT INTO income_entries (user_id, environment, income_type, tran_id, symbol, income, asset, info, trade_id, time)
     VALUES ($1, 'testnet', 'COMMISSION', '1', 'BTCUSDT', -0.14992912, 'USDT', '', '7', to_timestamp($2::float8 / 1000)),
            ($1, 'testnet', 'DELIVERED_SETTELMENT', '2', 'BTCUSDT', 3.5, 'USDT', '', '', to_timestamp($3::float8 / 1000))`,
    [userId, NOW - 120_000, NOW - 180_000],
  );
}, 120_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await close?.();
});

const renderView = () =>
  renderWithRuntime(<HistoryView now={() => NOW} />, { runtime, queryClient: createQueryClient() });

/** Rows of the trades table with data (spacer rows are aria-hidden) */
const dataRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .filter((r) => r.closest('tbody') && r.getAttribute('aria-hidden') !== 'true');

describe('the history view on 10,000 fills', () => {
  it('shows the totals of every match, renders a window of rows, loads more as it scrolls', async () => {
    renderView();
    const table = await screen.findByRole('table', { name: 'Trades' }, { timeout: 20_000 });
    // 30 days back from NOW: 10,000 fills a minute apart are all in it
    expect(screen.getByText('10,000 trades, fees 10.00 USDT, realized PnL +2,500.00 USDT')).toBeTruthy();
    // One page loaded (200 rows + the header row), of which only a window is in the DOM
    expect(table.getAttribute('aria-rowcount')).toBe('201');
    // The virtualizer is a chunk of its own (ui's DataTable loads it for the first virtualised table)
    await waitFor(() => expect(dataRows(table).length).toBeGreaterThan(0));
    const rendered = dataRows(table).length;
    expect(rendered).toBeLessThan(60);
    // Newest first
    expect(within(dataRows(table)[0] as HTMLElement).getByText('2026-03-01 11:59')).toBeTruthy();
    // Written to the exchange's record without an order of Kestrel's: placed outside it
    expect(within(dataRows(table)[0] as HTMLElement).getByText('Outside Kestrel')).toBeTruthy();

    // Scrolled near the end of what is loaded: the next page comes
    const frame = table.closest('section') as HTMLElement;
    Object.defineProperty(frame, 'scrollHeight', { configurable: true, value: 201 * 33 });
    frame.scrollTop = 201 * 33 - 600;
    fireEvent.scroll(frame);
    await waitFor(() => expect(table.getAttribute('aria-rowcount')).toBe('401'), { timeout: 10_000 });
    expect(dataRows(table).length).toBeLessThan(60);
    // Another order starts again from the first row
    expect(frame.scrollTop).toBeGreaterThan(0);
    fireEvent.click(within(table).getByRole('button', { name: /Quantity/ }));
    await waitFor(() => expect(frame.scrollTop).toBe(0));
  }, 60_000);

  it('sorts on the server when a header is clicked, and filters by symbol and side', async () => {
    const user = userEvent.setup();
    renderView();
    const table = await screen.findByRole('table', { name: 'Trades' }, { timeout: 20_000 });
    await user.click(within(table).getByRole('button', { name: /Price/ }));
    // Ascending on price over all 10,000, not just the loaded page: the lowest price is fill 1's
    await waitFor(() => expect(within(dataRows(table)[0] as HTMLElement).getByText('1,001')).toBeTruthy());
    expect(within(table).getByRole('columnheader', { name: /Price/ }).getAttribute('aria-sort')).toBe(
      'ascending',
    );

    await user.selectOptions(screen.getByLabelText('Side'), 'SELL');
    await waitFor(() => expect(screen.getByText(/^5,000 trades,/)).toBeTruthy());
    // The symbol list is the account's (none imported income, so only fills name them)
    const symbol = screen.getByLabelText('Symbol');
    await waitFor(() => expect(within(symbol).getAllByRole('option')).toHaveLength(4));
    await user.selectOptions(symbol, 'ETHUSDT');
    // i odd and i % 3 = 1: i = 1, 7, 13, … up to 9997
    await waitFor(() => expect(screen.getByText(/^1,667 trades,/)).toBeTruthy());
    for (const row of dataRows(table)) expect(row.textContent).toContain('ETHUSDT');
  }, 60_000);

  it('names income types as a trader reads them and shows each amount as the exchange booked it', async () => {
    const user = userEvent.setup();
    renderView();
    await screen.findByRole('table', { name: 'Trades' }, { timeout: 20_000 });
    await user.click(screen.getByRole('tab', { name: 'Income' }));
    const table = await screen.findByRole('table', { name: 'Income' }, { timeout: 20_000 });
    await waitFor(() => expect(dataRows(table)).toHaveLength(2));
    const [fee, settlement] = dataRows(table) as [HTMLElement, HTMLElement];
    expect(within(fee).getByText('Trading fee')).toBeTruthy();
    expect(within(fee).getByText('-0.14992912 USDT')).toBeTruthy();
    expect(within(settlement).getByText('Delivery settlement')).toBeTruthy();
    expect(within(settlement).getByText('+3.50 USDT')).toBeTruthy();
    // The type filter offers the same names, and asks the server with Binance's word
    const type = screen.getByLabelText('Type');
    expect(within(type).getByRole('option', { name: 'Delivery settlement' })).toBeTruthy();
    await user.selectOptions(type, 'DELIVERED_SETTELMENT');
    await waitFor(() => expect(dataRows(table)).toHaveLength(1));
    expect(table.textContent).not.toContain('Trading fee');
  }, 60_000);

  it('exports what is filtered as CSV from the server', async () => {
    const user = userEvent.setup();
    let blob: Blob | undefined;
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blob = b as Blob;
      return 'blob:history';
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      renderView();
      await screen.findByRole('table', { name: 'Trades' }, { timeout: 20_000 });
      await user.click(screen.getByRole('button', { name: '24 h' }));
      await user.selectOptions(screen.getByLabelText('Side'), 'BUY');
      // 24 h back from NOW: fills 1 to 1440, of which the even ones are buys
      await waitFor(() => expect(screen.getByText(/^720 trades,/)).toBeTruthy());
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(click).toHaveBeenCalled(), { timeout: 10_000 });
      const link = click.mock.contexts[0] as HTMLAnchorElement;
      expect(link.download).toMatch(/^kestrel-trades-20260228-\d{8}\.csv$/);
      const lines = (await (blob as Blob).text()).trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'time,symbol,side,positionSide,price,quantity,quoteQuantity,realizedPnl,commission,commissionAsset,maker,tradeId,orderId,placedBy',
      );
      expect(lines).toHaveLength(721);
      expect(lines.slice(1).every((l) => l.split(',')[2] === 'BUY')).toBe(true);
    } finally {
      create.mockRestore();
      click.mockRestore();
      await act(async () => {});
    }
  }, 60_000);
});
