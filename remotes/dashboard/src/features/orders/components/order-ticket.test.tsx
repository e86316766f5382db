import type { CreateOrderRequest, FuturesOrder, SymbolInfo } from '@kestrel/contracts';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { testRuntime } from '../../../test/runtime';
import { OrderFailureError } from '../lib/order-failure';
import { OrderTicket } from './order-ticket';

const btc = {
  symbol: 'BTCUSDT',
  baseAsset: 'BTC',
  quoteAsset: 'USDT',
  tickSize: '0.10',
  stepSize: '0.001',
  minQuantity: '0.001',
  maxQuantity: '1000',
  minNotional: '100',
} as SymbolInfo;

// The ticket's own rule for a lost answer, apart from the server (whose answers the route test covers)
describe('order ticket after a lost answer', () => {
  it('says "status unknown", will not send again from that dialog, and resends only under the same client id', async () => {
    const place = vi.fn<(order: CreateOrderRequest) => Promise<FuturesOrder>>(async () => {
      throw new OrderFailureError({ kind: 'unknown', reason: 'The exchange did not confirm order kweb1' });
    });
    const user = userEvent.setup();
    // No server answers: the symbol's leverage stays unknown, which the ticket says and works without
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <KestrelRuntimeProvider runtime={testRuntime()}>
          <OrderTicket defaultSymbol="BTCUSDT" infoOf={() => btc} onSymbolChange={() => {}} place={place} />
        </KestrelRuntimeProvider>
      </QueryClientProvider>,
    );
    const form = screen.getByRole('form', { name: 'Order ticket' });
    await user.selectOptions(within(form).getByLabelText('Type'), 'MARKET');
    await user.type(within(form).getByLabelText('Quantity (BTC)'), '0.002');
    await user.click(within(form).getByRole('button', { name: 'Review order' }));

    const dialog = await screen.findByRole('dialog', { name: 'Place order' });
    await user.click(within(dialog).getByRole('button', { name: 'Place order' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toMatch(/^Status unknown: The exchange did not confirm order kweb1\./);
    expect(alert.textContent).toContain('Kestrel does not resend it');
    expect(within(dialog).getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', true);
    expect(place).toHaveBeenCalledTimes(1);

    // The trader checked and chose to send it again: the same order goes under the same id, so it cannot double
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(form).getByRole('alert').textContent).toBe(alert.textContent);
    await user.click(within(form).getByRole('button', { name: 'Review order' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(place).toHaveBeenCalledTimes(2));
    const [first, second] = place.mock.calls.map(([order]) => order);
    expect(first?.clientOrderId).toMatch(/^kweb[0-9a-f]{32}$/);
    expect(second?.clientOrderId).toBe(first?.clientOrderId);
    expect(second).toEqual(first);
  });
});
