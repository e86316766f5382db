import type { CreateOrderRequest } from '@kestrel/contracts';
import type { ExchangeKeys } from '../../core/exchange/exchange-adapter';

/**
 * Checks an order or a leverage change against the user's account limits before it is sent; throws an HTTP error
 * (422 `RISK_LIMIT`) to refuse. `RiskGuard` (`trading/risk/risk-guard.ts`) is the one implementation
 */
export interface OrderGuard {
  checkOrder(userId: string, keys: ExchangeKeys, order: CreateOrderRequest): Promise<void>;
  checkLeverage(userId: string, symbol: string, leverage: number): Promise<void>;
}
