import type { FuturesOrder, FuturesPosition } from '@kestrel/contracts';

/** A 0.010 BTCUSDT long in one-way mode, entered at 64,000 and marked at 65,000 */
export const BTCUSDT_LONG: FuturesPosition = {
  symbol: 'BTCUSDT',
  positionSide: 'BOTH',
  amount: '0.010',
  entryPrice: '64000',
  markPrice: '65000',
  unrealizedPnl: '10',
  liquidationPrice: '50000',
  notional: '650',
  initialMargin: '32.5',
  maintenanceMargin: '2.6',
  updatedAt: 0,
};

/** A waiting conditional order as the server lists it: by default the long's close-position stop-loss at 60,000 */
export const conditionalOrder = (patch: Partial<FuturesOrder>): FuturesOrder =>
  ({
    orderId: '1',
    clientOrderId: 'c',
    symbol: 'BTCUSDT',
    side: 'SELL',
    type: 'STOP_MARKET',
    kind: 'conditional',
    status: 'NEW',
    price: '0',
    quantity: '0',
    executedQuantity: '0',
    triggerPrice: '60000',
    closePosition: true,
    positionSide: 'BOTH',
    reduceOnly: true,
    timeInForce: 'GTC',
    time: 0,
    updateTime: 0,
    ...patch,
  }) as FuturesOrder;
