import type { OrderPort } from '../../broker/order-port';

/**
 * The stop-loss (`sl`) and take-profit (`tp`) of the position now, close-position triggers `stopLossPct` and
 * `takeProfitPct` away from its average entry (0: none of that one). Placed by a strategy when an entry fills
 */
export function placePositionExits(
  broker: OrderPort,
  { stopLossPct, takeProfitPct }: { stopLossPct: number; takeProfitPct: number },
): void {
  const long = broker.positionQty > 0;
  const side = long ? 'sell' : 'buy';
  const entry = broker.entryPrice;
  if (stopLossPct > 0) {
    const triggerPrice = broker.roundPrice(entry * (long ? 1 - stopLossPct : 1 + stopLossPct));
    broker.submit({ side, type: 'stop-market', triggerPrice, closePosition: true, tag: 'sl' });
  }
  if (takeProfitPct > 0) {
    const triggerPrice = broker.roundPrice(entry * (long ? 1 + takeProfitPct : 1 - takeProfitPct));
    broker.submit({ side, type: 'take-profit-market', triggerPrice, closePosition: true, tag: 'tp' });
  }
}

/** A reduce-only market close of the whole position, tagged `exit`; nothing when flat */
export function closePosition(broker: OrderPort): void {
  const pos = broker.positionQty;
  if (pos === 0) return;
  broker.submit({
    side: pos > 0 ? 'sell' : 'buy',
    type: 'market',
    quantity: Math.abs(pos),
    reduceOnly: true,
    tag: 'exit',
  });
}
