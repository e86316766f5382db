import type { TradingAccount } from '../../core/environment/trading-account';
import type { PositionSide } from '../../core/exchange/exchange-adapter';
import type { OrderContext } from './order-context';

/**
 * The account's settings that change what an order risks: leverage, cross or isolated margin, and the margin put
 * into (or taken out of) an isolated position. Each is asked like an order: with keys whose last check passed
 * whenever it can add risk, against the max-leverage limit for leverage, and each change left as an order event the
 * user reads (what changed, and by whom: the trader by hand or a bot)
 */
export class AccountSettings {
  constructor(private readonly ctx: OrderContext) {}

  /**
   * Sets the account's leverage on `symbol` (`POST /fapi/v1/leverage`): a live bot before its first order, so the
   * exchange holds the margin it was backtested with, and the trader by hand (`FuturesService`). Like an order it
   * opens risk: a refused key is 409, and leverage above the max-leverage limit is 422 `RISK_LIMIT` before anything
   * is sent. The exchange's refusal is thrown as it came (its words)
   */
  async setLeverage(
    account: TradingAccount,
    symbol: string,
    leverage: number,
  ): Promise<{ symbol: string; leverage: number }> {
    const keys = await this.ctx.keys(account, { opensRisk: true });
    await this.ctx.leverageGuard.checkLeverage(account.userId, symbol, leverage);
    return this.ctx.exchange.setLeverage(keys, symbol, leverage);
  }

  /**
   * Cross or isolated margin on `symbol` (`POST /fapi/v1/marginType`). Binance allows it only while the symbol has
   * no open order and no position, and says so in its refusal. Cross margin puts the whole balance behind the
   * position, so the switch needs keys fit to trade
   */
  async setMarginType(
    account: TradingAccount,
    symbol: string,
    marginType: 'cross' | 'isolated',
  ): Promise<{ symbol: string; marginType: 'cross' | 'isolated' }> {
    const keys = await this.ctx.keys(account, { opensRisk: true });
    const done = await this.ctx.exchange.setMarginType(keys, symbol, marginType);
    await this.record(account, 'margin_type', `${symbol} set to ${marginType} margin`, {
      symbol,
      marginType,
    });
    return done;
  }

  /**
   * Margin into an isolated position, or out of it (`POST /fapi/v1/positionMargin`). Taking margin out brings the
   * liquidation price closer, so it needs keys fit to trade; adding only lowers risk. Binance refuses taking out
   * what the position's initial margin needs, so the position's leverage never passes the symbol's (already
   * checked against the max-leverage limit when it was set)
   */
  async changePositionMargin(
    account: TradingAccount,
    change: { symbol: string; positionSide: PositionSide; amount: string; direction: 'add' | 'reduce' },
  ): Promise<void> {
    const keys = await this.ctx.keys(account, { opensRisk: change.direction === 'reduce' });
    await this.ctx.exchange.changePositionMargin(keys, change);
    const side = change.positionSide === 'BOTH' ? '' : ` ${change.positionSide.toLowerCase()}`;
    const what =
      change.direction === 'add'
        ? `${change.amount} USDT of margin added to the ${change.symbol}${side} position`
        : `${change.amount} USDT of margin taken out of the ${change.symbol}${side} position`;
    await this.record(account, 'position_margin', what, { ...change });
  }

  private async record(
    account: TradingAccount,
    kind: string,
    message: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.ctx.repo.insertEvent(this.ctx.db, {
      userId: account.userId,
      intentId: null,
      kind,
      message,
      data: { ...data, environment: account.environment },
      at: this.ctx.now(),
    });
  }
}
