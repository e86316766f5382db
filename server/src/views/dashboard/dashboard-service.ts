import {
  DASHBOARD_DEFAULT_RANGE_MS,
  type DashboardOverview,
  type DashboardPortfolio,
  EQUITY_MAX_POINTS,
  type EquityHistory,
  type EquityQuery,
  type IncomePage,
  type IncomeQuery,
  type TradingEnvironment,
} from '@kestrel/contracts';
import type { CredentialsService } from '../../core/credentials/credentials-service';
import type { TradingAccount } from '../../core/environment/trading-account';
import { realizedPnl } from '../../core/exchange/account-figures';
import { AccountReads } from '../../core/exchange/account-reads';
import {
  type ExchangeAdapter,
  ExchangeApiError,
  type ExchangeKeys,
} from '../../core/exchange/exchange-adapter';
import { viaExchange } from '../../core/exchange/exchange-http-error';
import { environmentOfKeys, type MarketFor } from '../../core/exchange/exchange-router';
import { readIncome } from '../../core/exchange/income-pages';
import { exchangeCallsAs, userCaller } from '../../core/exchange/weight-budget';
import { incomeFilterOf, type RecorderRepository } from '../../core/recorder/recorder-repository';
import type { Clock } from '../../lib/clock';
import { startOfUtcDay } from '../../lib/clock';
import type { Queryable } from '../../lib/database/database';
import { dashboardOverview, dashboardPortfolio, isHeld } from './dashboard-figures';

const MINUTE_MS = 60_000;

/** Whole minutes per bucket so that [from, to] fits in `EQUITY_MAX_POINTS` buckets (one minute at least) */
export function equityBucketMs(from: number, to: number): number {
  return MINUTE_MS * Math.max(1, Math.ceil((to - from + 1) / (MINUTE_MS * EQUITY_MAX_POINTS)));
}

/**
 * The cockpit's figures of the signed-in user's connected account: keys from the vault (a clear 400 without),
 * exchange errors as HTTP errors, today's window by the injected clock (`dashboard-figures.ts` does the maths)
 */
export class DashboardService {
  constructor(
    private readonly credentials: Pick<CredentialsService, 'keysFor'>,
    private readonly exchange: ExchangeAdapter,
    private readonly clock: Clock,
    /** The account recorder's tables: equity snapshots and imported income */
    private readonly history: { db: Queryable; repo: RecorderRepository },
    /** Overview and portfolio are kept a few seconds per user: the page refetches them on every fill */
    private readonly reads: AccountReads = new AccountReads(),
    /** The user's bots that are running (or starting), from the bots table */
    private readonly activeBots: (userId: string) => Promise<number> = async () => 0,
    /** Public market data per environment: balances are valued at their own environment's prices */
    private readonly market: MarketFor = () => exchange,
  ) {}

  /**
   * The account's recorded equity (the request's account: the user's current environment's) over [from, to]
   * (default: the 30 days up to now), oldest first, downsampled to at most `EQUITY_MAX_POINTS` buckets. Read from
   * the database: no exchange call, and no keys needed
   */
  async equity(account: TradingAccount, query: EquityQuery): Promise<EquityHistory> {
    const { from, to } = this.range(query);
    const bucketMs = equityBucketMs(from, to);
    const points = await this.history.repo.equity(this.history.db, account, { from, to, bucketMs });
    return { from, to, bucketMs, points };
  }

  /**
   * The account's imported income of [from, to] (default: the 30 days up to now), filtered, sorted
   * (newest first), one page
   */
  async income(account: TradingAccount, query: IncomeQuery): Promise<IncomePage> {
    const { from, to } = this.range(query);
    const { page, pageSize } = query;
    const [found, sync] = await Promise.all([
      this.history.repo.income(this.history.db, account, {
        ...incomeFilterOf(query, from, to),
        offset: (page - 1) * pageSize,
        limit: pageSize,
      }),
      this.history.repo.sync(this.history.db, account),
    ]);
    return { from, to, page, pageSize, ...found, syncedTo: sync?.synced_to ?? null };
  }

  /**
   * Balances, margin, today's realized PnL (00:00 UTC up to now, from the income history), counts of open
   * positions and orders
   */
  overview(account: TradingAccount): Promise<DashboardOverview> {
    return this.#read('overview', account, () => this.#overview(account));
  }

  async #overview(trading: TradingAccount): Promise<DashboardOverview> {
    const k = await this.keys(trading);
    const asOf = this.clock.now().getTime();
    const window = { from: startOfUtcDay(asOf), to: asOf };
    const [[account, openOrders, income], activeBots] = await Promise.all([
      viaExchange(() =>
        Promise.all([
          this.exchange.account(k),
          this.exchange.openOrders(k),
          readIncome(this.exchange, k, window),
        ]),
      ),
      this.activeBots(trading.userId),
    ]);
    return dashboardOverview({
      account,
      openOrders,
      today: realizedPnl(income.entries, window),
      activeBots,
      asOf,
    });
  }

  /** Per-asset balances valued in USDT, open positions and the allocation between them */
  portfolio(account: TradingAccount): Promise<DashboardPortfolio> {
    return this.#read('portfolio', account, () => this.#portfolio(account));
  }

  /**
   * Kept a few seconds per account (a user's figures of one environment are never served for the other), charged
   * to the user's share of the exchange budget
   */
  #read<T>(name: string, { userId, environment }: TradingAccount, load: () => Promise<T>): Promise<T> {
    return this.reads.read(`dashboard.${name}.${environment}`, userId, this.clock.now().getTime(), () =>
      exchangeCallsAs({ caller: userCaller(userId), lane: 'interactive' }, load),
    );
  }

  async #portfolio(trading: TradingAccount): Promise<DashboardPortfolio> {
    const k = await this.keys(trading);
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
        Promise.all(
          others.map(async (asset) => [asset, await this.usdtPrice(environmentOfKeys(k), asset)] as const),
        ),
      ),
    );
    return dashboardPortfolio({ account, positions, prices, asOf });
  }

  /** USDT per unit of `asset`: the last price of `<asset>USDT`, undefined when the exchange lists no such symbol */
  private async usdtPrice(environment: TradingEnvironment, asset: string): Promise<string | undefined> {
    try {
      return (await this.market(environment).ticker(`${asset}USDT`)).lastPrice;
    } catch (err) {
      if (err instanceof ExchangeApiError) return undefined;
      throw err;
    }
  }

  private range(query: { from?: number; to?: number }): { from: number; to: number } {
    const to = query.to ?? this.clock.now().getTime();
    return { from: query.from ?? Math.max(0, to - DASHBOARD_DEFAULT_RANGE_MS), to };
  }

  private async keys(account: TradingAccount): Promise<ExchangeKeys> {
    // The environment stays with the key: the exchange router sends it to that environment's host only
    const { apiKey, secretKey, environment } = await this.credentials.keysFor(account);
    return { apiKey, secretKey, environment };
  }
}
