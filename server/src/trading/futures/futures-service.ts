import type { CreateOrderRequest, FuturesAccountInfo, PnlSummary, RiskAssessment } from '@kestrel/contracts';
import type { CredentialsService } from '../../core/credentials/credentials-service';
import type { TradingAccount } from '../../core/environment/trading-account';
import { isOpenPosition, pnlSummary, riskAssessment } from '../../core/exchange/account-figures';
import type {
  ExchangeAdapter,
  ExchangeKeys,
  Order,
  OrderRef,
  Position,
  SymbolInfo,
  Trade,
} from '../../core/exchange/exchange-adapter';
import { viaExchange } from '../../core/exchange/exchange-http-error';
import type { MarketFor } from '../../core/exchange/exchange-router';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import { intentOutcome } from '../orders/intent-outcome';
import type { OrderManager } from '../orders/order-manager';

/** Binance's default income window, which the PnL summary covers */
export const PNL_WINDOW_MS = 7 * 86_400_000;
/** Income entries read for the PnL summary (Binance's largest page) */
export const PNL_INCOME_LIMIT = 1000;

/**
 * The futures calls of the signed-in user's connected account: keys from the vault, exchange errors as HTTP
 * errors (`exchange-http-error.ts`), the open-position filter, the PnL window by the injected clock and the risk
 * figures (`account-figures.ts` does the maths)
 */
export class FuturesService {
  constructor(
    private readonly credentials: Pick<CredentialsService, 'keysFor' | 'tradingKeysFor'>,
    private readonly exchange: ExchangeAdapter,
    private readonly clock: Clock,
    /**
     * Every order goes through it: recorded, risk-checked, sent once, an unknown outcome resolved by lookups; and
     * every leverage change, checked against the max-leverage limit there
     */
    private readonly orders: Pick<OrderManager, 'place' | 'noteOrder' | 'setLeverage'>,
    /** Public market data per environment (`exchangeRouter.marketFor`); tests default to the adapter */
    private readonly market: MarketFor = () => exchange,
  ) {}

  /** Balances and margin with the open positions (positionRisk: only it carries mark and liquidation prices) */
  async accountInfo(trading: TradingAccount): Promise<FuturesAccountInfo> {
    const k = await this.keys(trading);
    const [account, positions] = await viaExchange(() =>
      Promise.all([this.exchange.account(k), this.exchange.positions(k)]),
    );
    return { ...account, positions: positions.filter(isOpenPosition) };
  }

  /** Positions with a non-zero amount, every symbol */
  async openPositions(account: TradingAccount): Promise<Position[]> {
    const k = await this.keys(account);
    return (await viaExchange(() => this.exchange.positions(k))).filter(isOpenPosition);
  }

  /** Positions of one symbol as the exchange lists them (both sides in hedge mode), open or flat */
  async positions(account: TradingAccount, symbol: string): Promise<Position[]> {
    const k = await this.keys(account);
    return viaExchange(() => this.exchange.positions(k, symbol));
  }

  async openOrders(account: TradingAccount, symbol: string | undefined): Promise<Order[]> {
    const k = await this.keys(account);
    return viaExchange(() => this.exchange.openOrders(k, symbol));
  }

  /**
   * Through the order manager: recorded under its client order id (the body's `clientOrderId`, else one derived
   * from `idempotencyKey`), checked against the user's account limits, sent once. The same key again answers the
   * first outcome; a lost answer is a 503 ORDER_STATUS_UNKNOWN while the manager resolves it by lookups
   */
  async placeOrder(
    account: TradingAccount,
    order: CreateOrderRequest,
    options: { source?: 'manual' | 'kill_switch'; idempotencyKey?: string } = {},
  ): Promise<Order> {
    const intent = await this.orders.place({
      account,
      order,
      source: options.source ?? 'manual',
      idempotencyKey: options.idempotencyKey,
    });
    return intentOutcome(intent);
  }

  /** Without `kind` the adapter tries a plain order first, then a conditional one */
  async cancelOrder(account: TradingAccount, symbol: string, ref: OrderRef): Promise<Order> {
    const k = await this.keys(account);
    const order = await viaExchange(() => this.exchange.cancelOrder(k, symbol, ref));
    await this.orders.noteOrder(account.userId, order);
    return order;
  }

  async setLeverage(
    account: TradingAccount,
    symbol: string,
    leverage: number,
  ): Promise<{ symbol: string; leverage: number }> {
    // Leverage opens risk: the order manager refuses a key whose last check failed and leverage over the limit
    return viaExchange(() => this.orders.setLeverage(account, symbol, leverage));
  }

  async orderHistory(account: TradingAccount, symbol: string | undefined, limit: number): Promise<Order[]> {
    const k = await this.keys(account);
    return viaExchange(() => this.exchange.orderHistory(k, symbol, limit));
  }

  async trades(account: TradingAccount, symbol: string | undefined, limit: number): Promise<Trade[]> {
    const k = await this.keys(account);
    return viaExchange(() => this.exchange.trades(k, symbol, limit));
  }

  /** Public trading rules of the account's environment; a symbol the exchange does not list is a 404 */
  async symbolInfo(account: TradingAccount, symbol: string): Promise<SymbolInfo> {
    const info = await viaExchange(async () => this.market(account.environment).symbolInfo(symbol));
    if (!info)
      throw new HttpError(404, 'SYMBOL_NOT_FOUND', `${symbol} is not a futures symbol of this exchange`);
    return info;
  }

  /**
   * Realized PnL, fees and funding of the 7 days up to the clock's now, and unrealized PnL now. The window is sent
   * to the exchange, so the figures cover exactly the window the answer states
   */
  async pnl(trading: TradingAccount): Promise<PnlSummary> {
    const k = await this.keys(trading);
    const to = this.clock.now().getTime();
    const window = { from: to - PNL_WINDOW_MS, to };
    const [income, account] = await viaExchange(() =>
      Promise.all([
        this.exchange.income(k, { startTime: window.from, endTime: window.to, limit: PNL_INCOME_LIMIT }),
        this.exchange.account(k),
      ]),
    );
    return pnlSummary(income, account, window);
  }

  /** Margin ratio, effective leverage and each open position's distance to liquidation (flat ones left out) */
  async risk(trading: TradingAccount): Promise<RiskAssessment> {
    const k = await this.keys(trading);
    const [account, positions] = await viaExchange(() =>
      Promise.all([this.exchange.account(k), this.exchange.positions(k)]),
    );
    return riskAssessment(account, positions);
  }

  /** The account's stored keys (a clear 400 when none are stored), without the region the exchange does not need */
  private async keys(account: TradingAccount): Promise<ExchangeKeys> {
    // The environment stays with the key: the exchange router sends it to that environment's host only
    const { apiKey, secretKey, environment } = await this.credentials.keysFor(account);
    return { apiKey, secretKey, environment };
  }
}
