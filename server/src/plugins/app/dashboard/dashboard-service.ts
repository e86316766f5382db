import type { DashboardOverview, DashboardPortfolio } from '@kestrel/contracts';
import type { Clock } from '../../../lib/clock';
import type { CredentialsService } from '../credentials/credentials-service';
import { type ExchangeAdapter, ExchangeApiError, type ExchangeKeys } from '../exchange/exchange-adapter';
import { viaExchange } from '../exchange/exchange-http-error';
import { readIncome } from '../exchange/income-pages';
import {
  dashboardOverview,
  dashboardPortfolio,
  isHeld,
  realizedPnl,
  startOfUtcDay,
} from './dashboard-figures';

/** Bots do not exist yet: the overview counts none */
const ACTIVE_BOTS = 0;

/**
 * The cockpit's figures of the signed-in user's connected account: keys from the vault (a clear 400 without),
 * exchange errors as HTTP errors, today's window by the injected clock (`dashboard-figures.ts` does the maths)
 */
export class DashboardService {
  constructor(
    private readonly credentials: Pick<CredentialsService, 'keysFor'>,
    private readonly exchange: ExchangeAdapter,
    private readonly clock: Clock,
  ) {}

  /**
   * Balances, margin, today's realized PnL (00:00 UTC up to now, from the income history), counts of open
   * positions and orders
   */
  async overview(userId: string): Promise<DashboardOverview> {
    const k = await this.keys(userId);
    const asOf = this.clock.now().getTime();
    const window = { from: startOfUtcDay(asOf), to: asOf };
    const [account, openOrders, income] = await viaExchange(() =>
      Promise.all([
        this.exchange.account(k),
        this.exchange.openOrders(k),
        readIncome(this.exchange, k, window),
      ]),
    );
    return dashboardOverview({
      account,
      openOrders,
      today: realizedPnl(income.entries, window),
      activeBots: ACTIVE_BOTS,
      asOf,
    });
  }

  /** Per-asset balances valued in USDT, open positions and the allocation between them */
  async portfolio(userId: string): Promise<DashboardPortfolio> {
    const k = await this.keys(userId);
    const asOf = this.clock.now().getTime();
    const [account, positions] = await viaExchange(() =>
      Promise.all([this.exchange.account(k), this.exchange.positions(k)]),
    );
    const others = account.assets
      .filter(isHeld)
      .map((a) => a.asset)
      .filter((a) => a !== 'USDT');
    const prices = new Map(
      await viaExchange(() =>
        Promise.all(others.map(async (asset) => [asset, await this.usdtPrice(asset)] as const)),
      ),
    );
    return dashboardPortfolio({ account, positions, prices, asOf });
  }

  /** USDT per unit of `asset`: the last price of `<asset>USDT`, undefined when the exchange lists no such symbol */
  private async usdtPrice(asset: string): Promise<string | undefined> {
    try {
      return (await this.exchange.ticker(`${asset}USDT`)).lastPrice;
    } catch (err) {
      if (err instanceof ExchangeApiError) return undefined;
      throw err;
    }
  }

  private async keys(userId: string): Promise<ExchangeKeys> {
    const { apiKey, secretKey } = await this.credentials.keysFor(userId);
    return { apiKey, secretKey };
  }
}
