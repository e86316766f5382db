import type { SymbolInfo } from '@kestrel/contracts';

/** BTCUSDT's rules as the simulator and Binance list them: the tests' one symbol with real filters */
export const BTCUSDT_INFO: SymbolInfo = {
  symbol: 'BTCUSDT',
  status: 'TRADING',
  baseAsset: 'BTC',
  quoteAsset: 'USDT',
  pricePrecision: 2,
  quantityPrecision: 3,
  tickSize: '0.10',
  stepSize: '0.001',
  minQuantity: '0.001',
  maxQuantity: '1000',
  minNotional: '100',
  orderTypes: ['LIMIT', 'MARKET', 'STOP_MARKET', 'TAKE_PROFIT_MARKET'],
};
