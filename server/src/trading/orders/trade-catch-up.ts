import type { TradingAccount } from '../../core/environment/trading-account';
import type { Trade } from '../../core/exchange/exchange-adapter';
import { viaExchange } from '../../core/exchange/exchange-http-error';
import type { OrderContext } from './order-context';

/** Fills per `userTrades` page (Binance's most) */
const TRADE_PAGE = 1000;
/** What Binance answers for a start time without an end: the 7 days after it */
const TRADE_WINDOW_MS = 7 * 86_400_000;
/** Pages a resumed bot reads at most (10,000 fills, weight 50) */
const TRADE_PAGES_MAX = 10;
const nextId = (id: string) => (BigInt(id) + 1n).toString();

/**
 * Trade catch-up: the account's fills read back by REST (`userTrades`), for a live bot's fills the user-data
 * stream missed and a resumed bot's fills since its start, each with its commission
 */
export class TradeCatchUp {
  constructor(private readonly ctx: OrderContext) {}

  /** The account's latest fills on `symbol`, newest first (a bot takes the commissions of fills it missed) */
  async recentTrades(account: TradingAccount, symbol: string, limit = 100): Promise<Trade[]> {
    const keys = await this.ctx.keys(account);
    return viaExchange(() => this.ctx.exchange.trades(keys, symbol, limit));
  }

  /**
   * The account's fills on `symbol` since `since` (ms), oldest first, at most `maxPages` pages of 1000 (weight 5
   * each): a resumed bot's fills before its restart, with their commission. Binance answers a start time with the
   * 7 days after it, so a quiet week is stepped over; then pages follow the last trade id. Cut short (`complete`
   * false) past `maxPages`
   */
  async tradesSince(
    account: TradingAccount,
    symbol: string,
    since: number,
    maxPages = TRADE_PAGES_MAX,
  ): Promise<{ trades: Trade[]; complete: boolean }> {
    const keys = await this.ctx.keys(account);
    const trades: Trade[] = [];
    const now = this.ctx.now();
    let start = since;
    // After a full page the rest follows by trade id, whatever its time
    let byId = false;
    const take = (page: Trade[]) => {
      const last = trades.at(-1);
      trades.push(...page.filter((t) => t.time >= since && (!last || BigInt(t.id) > BigInt(last.id))));
    };
    for (let n = 0; n < maxPages; n++) {
      const last = trades.at(-1);
      if (byId && last) {
        const page = await viaExchange(() =>
          this.ctx.exchange.tradesFrom(keys, symbol, nextId(last.id), TRADE_PAGE),
        );
        take(page);
        if (page.length < TRADE_PAGE) return { trades, complete: true };
      } else {
        if (start > now) return { trades, complete: true };
        const from = start;
        const page = await viaExchange(() => this.ctx.exchange.tradesSince(keys, symbol, from, TRADE_PAGE));
        take(page);
        // A page short of full ends its 7-day window: the next window starts where this one ends
        if (page.length === TRADE_PAGE) byId = true;
        else start += TRADE_WINDOW_MS;
      }
    }
    return { trades, complete: false };
  }
}
