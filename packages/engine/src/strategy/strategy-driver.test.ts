import { describe, expect, it } from 'vitest';
import { BarSeries } from '../bars/bars';
import type { OrderPort } from '../broker/order-port';
import type { Fill, OrderRequest, OrderView } from '../broker/orders';
import { roundToStep } from '../math/rounding';
import { emaCrossStrategy } from '../strategies/ema-cross/strategy';
import { StrategyDriver } from './strategy-driver';

/** An exchange-side port as the bot runtime would implement it: records intents, holds what the exchange reports */
class RecordingPort implements OrderPort {
  positionQty = 0;
  entryPrice = 0;
  liquidationPrice = Number.NaN;
  walletBalance = 1_000;
  leverage = 1;
  readonly inFlightOrders: OrderView[] = [];
  readonly openOrders: OrderView[] = [];
  readonly sent: OrderRequest[] = [];
  setLeverage(leverage: number): void {
    this.leverage = leverage;
  }
  roundQty(qty: number): number {
    return roundToStep(qty, 0.001, 'down');
  }
  roundPrice(price: number): number {
    return roundToStep(price, 0.1);
  }
  submit(request: OrderRequest): OrderView {
    this.sent.push(request);
    return { id: this.sent.length } as OrderView;
  }
  cancel(): boolean {
    return false;
  }
  cancelAll(): void {}
  equityAt(price: number): number {
    return this.walletBalance + this.positionQty * (price - this.entryPrice);
  }
}

describe('StrategyDriver over a non-simulated port', () => {
  it('sends the strategy’s order intents to whatever port the runtime provides', () => {
    const series = new BarSeries(60_000, 4);
    const port = new RecordingPort();
    const driver = new StrategyDriver(
      emaCrossStrategy,
      { fast: 2, slow: 3, leverage: 2, positionFraction: 0.5 },
      series,
      port,
    );
    const fills: Fill[] = [];
    [100, 100, 100, 110].forEach((c, i) => {
      series.append(i * 60_000, c, c, c, c, 1);
      driver.onBarClosed(i, fills);
    });
    expect(port.leverage).toBe(2);
    // Cross up on the last bar: 1000 × 0.5 × 2 / 110 = 9.0909 → 9.09
    expect(port.sent).toEqual([{ side: 'buy', type: 'market', quantity: 9.09, tag: 'entry' }]);
  });
});
