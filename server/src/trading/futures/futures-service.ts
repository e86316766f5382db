import type {
  CreateOrderRequest,
  EntryProtectionRecord,
  FuturesAccountInfo,
  OrderPreview,
  PlaceOrderRequest,
  PnlSummary,
  PositionMarginRequest,
  RiskAssessment,
} from '@kestrel/contracts';
import type { CredentialsService } from '../../core/credentials/credentials-service';
import type { TradingAccount } from '../../core/environment/trading-account';
import { isOpenPosition, pnlSummary, riskAssessment } from '../../core/exchange/account-figures';
import type {
  ExchangeAdapter,
  ExchangeKeys,
  Order,
  OrderRef,
  Position,
  SymbolConfig,
  SymbolInfo,
  Trade,
} from '../../core/exchange/exchange-adapter';
import { viaExchange } from '../../core/exchange/exchange-http-error';
import type { MarketFor } from '../../core/exchange/exchange-router';
import type { LeverageBrackets } from '../../core/market-data/leverage-brackets';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import { manualClientOrderId } from '../orders/client-order-id';
import { intentOutcome } from '../orders/intent-outcome';
import type { StoredIntent } from '../orders/order-intent-repository';
import type { OrderManager } from '../orders/order-manager';
import type { EntryProtections } from './entry-protections';
import { previewOrder } from './order-preview';

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
    private readonly orders: Pick<
      OrderManager,
      'place' | 'noteOrder' | 'setLeverage' | 'setMarginType' | 'changePositionMargin' | 'intentOf'
    >,
    /** Public market data per environment (`exchangeRouter.marketFor`); tests default to the adapter */
    private readonly market: MarketFor = () => exchange,
    /** TP/SL attached to entries, placed once they fill (none: attaching one is refused) */
    private readonly protections?: EntryProtections,
    /** The symbol's leverage brackets for order previews (none: the engine's default table) */
    private readonly brackets?: Pick<LeverageBrackets, 'forRun'>,
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

  /** As the exchange lists them (the kill switch cancels from this: nothing is looked up on the way) */
  async openOrders(account: TradingAccount, symbol: string | undefined): Promise<Order[]> {
    const k = await this.keys(account);
    return viaExchange(() => this.exchange.openOrders(k, symbol));
  }

  /** The open orders as the trader reads them: a trailing stop Kestrel placed with its terms */
  async listedOrders(account: TradingAccount, symbol: string | undefined): Promise<Order[]> {
    const orders = await this.openOrders(account, symbol);
    return Promise.all(orders.map((o) => this.withTrailingTerms(account.userId, o)));
  }

  /**
   * Binance's list of open conditional orders leaves out a trailing stop's callback rate and activation price; one
   * Kestrel placed is recorded with them, so they are read from its intent (an order placed elsewhere stays without)
   */
  private async withTrailingTerms(userId: string, order: Order): Promise<Order> {
    if (order.type !== 'TRAILING_STOP_MARKET' || order.callbackRate !== null) return order;
    const request = (await this.orders.intentOf(userId, order.clientOrderId))?.request;
    if (request?.callbackRate === undefined) return order;
    return {
      ...order,
      callbackRate: request.callbackRate,
      activationPrice: request.activationPrice ?? order.activationPrice,
    };
  }

  /**
   * Through the order manager: recorded under its client order id (the body's `clientOrderId`, else one derived
   * from `idempotencyKey`), checked against the user's account limits, sent once. The same key again answers the
   * first outcome; a lost answer is a 503 ORDER_STATUS_UNKNOWN while the manager resolves it by lookups. With
   * `protection` the TP/SL is recorded before the entry is sent and placed once it fills (`EntryProtections`)
   */
  async placeOrder(
    account: TradingAccount,
    request: PlaceOrderRequest,
    options: { source?: 'manual' | 'kill_switch'; idempotencyKey?: string } = {},
  ): Promise<Order> {
    const { protection, ...order } = request;
    const source = options.source ?? 'manual';
    if (!protection) {
      const intent = await this.orders.place({
        account,
        order,
        source,
        idempotencyKey: options.idempotencyKey,
      });
      return intentOutcome(intent);
    }
    const protections = this.protections;
    if (!protections) {
      throw new HttpError(400, 'VALIDATION_ERROR', 'This server cannot attach a TP/SL to an entry');
    }
    await viaExchange(() => protections.check(account, order, protection));
    // The entry's id is fixed first, so its TP/SL is on record under it before anything is sent
    const clientOrderId = manualClientOrderId(account.userId, {
      clientOrderId: order.clientOrderId,
      idempotencyKey: options.idempotencyKey,
    });
    const attached = await protections.attach(account, order, clientOrderId, protection);
    let intent: StoredIntent;
    try {
      intent = await this.orders.place({ account, order, source, clientOrderId });
    } catch (err) {
      await protections.abandon(attached, err instanceof Error ? err.message : String(err));
      throw err;
    }
    // A MARKET entry has filled by now: its TP/SL go on at once (a LIMIT one waits for the sweep to see a fill)
    await protections.follow(attached, intent.state === 'placed' ? (intent.order as Order) : undefined);
    return intentOutcome(intent);
  }

  /**
   * What a LIMIT or MARKET order would cost and where the position it leaves would be liquidated, before it is sent
   * (`previewOrder`): nothing is placed or recorded
   */
  async previewOrder(account: TradingAccount, order: CreateOrderRequest): Promise<OrderPreview> {
    if ((order.type !== 'LIMIT' && order.type !== 'MARKET') || order.quantity === undefined) {
      throw new HttpError(400, 'VALIDATION_ERROR', 'A preview is of a LIMIT or MARKET order with a quantity');
    }
    const k = await this.keys(account);
    const [snapshot, positions, config, last, brackets] = await viaExchange(() =>
      Promise.all([
        this.exchange.account(k),
        this.exchange.positions(k, order.symbol),
        this.exchange.symbolConfig(k, order.symbol),
        order.type === 'MARKET' ? this.market(account.environment).lastPrice(order.symbol) : undefined,
        this.brackets?.forRun(account, order.symbol),
      ]),
    );
    if (!config)
      throw new HttpError(
        404,
        'SYMBOL_NOT_FOUND',
        `${order.symbol} is not a futures symbol of this exchange`,
      );
    return previewOrder({
      order,
      price: Number(order.type === 'LIMIT' ? order.price : last),
      config,
      account: snapshot,
      positions,
      brackets: brackets?.brackets,
    });
  }

  /** The TP/SL attached to the account's entries: the waiting ones first, then the latest others */
  entryProtections(account: TradingAccount): Promise<EntryProtectionRecord[]> {
    return this.protections?.list(account) ?? Promise.resolve([]);
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

  /** Cross or isolated margin on a symbol, through the order manager (keys fit to trade, recorded) */
  async setMarginType(
    account: TradingAccount,
    symbol: string,
    marginType: 'cross' | 'isolated',
  ): Promise<{ symbol: string; marginType: 'cross' | 'isolated' }> {
    return viaExchange(() => this.orders.setMarginType(account, symbol, marginType));
  }

  /** Margin into or out of an isolated position, through the order manager (recorded) */
  async changePositionMargin(account: TradingAccount, change: PositionMarginRequest): Promise<void> {
    await viaExchange(() =>
      this.orders.changePositionMargin(account, {
        symbol: change.symbol,
        positionSide: change.positionSide,
        amount: change.amount,
        direction: change.action === 'add' ? 'add' : 'reduce',
      }),
    );
  }

  async orderHistory(account: TradingAccount, symbol: string | undefined, limit: number): Promise<Order[]> {
    const k = await this.keys(account);
    return viaExchange(() => this.exchange.orderHistory(k, symbol, limit));
  }

  async trades(account: TradingAccount, symbol: string | undefined, limit: number): Promise<Trade[]> {
    const k = await this.keys(account);
    return viaExchange(() => this.exchange.trades(k, symbol, limit));
  }

  /** How the account trades the symbol now (margin type, leverage), read from the exchange */
  async symbolConfig(account: TradingAccount, symbol: string): Promise<SymbolConfig> {
    const k = await this.keys(account);
    const config = await viaExchange(() => this.exchange.symbolConfig(k, symbol));
    if (!config)
      throw new HttpError(404, 'SYMBOL_NOT_FOUND', `${symbol} is not a futures symbol of this exchange`);
    return config;
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
