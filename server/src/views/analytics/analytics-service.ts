import { type Analytics, type AnalyticsQuery, DASHBOARD_DEFAULT_RANGE_MS } from '@kestrel/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { AccountRecorder } from '../../core/recorder/account-recorder';
import type { RecorderRepository } from '../../core/recorder/recorder-repository';
import type { Clock } from '../../lib/clock';
import type { Queryable } from '../../lib/database/database';
import { equityBucketMs } from '../dashboard/dashboard-service';
import { analyticsFigures } from './analytics-figures';
import type { AnalyticsRepository } from './analytics-repository';

/**
 * Income older than this is imported again before the figures are read (one income call, weight 30, at most this
 * often per user), so a trade closed a moment ago is in the page the trader opens now
 */
export const ANALYTICS_FRESH_MS = 15_000;

export interface AnalyticsServiceDeps {
  db: Queryable;
  repo: AnalyticsRepository;
  recorderRepo: Pick<RecorderRepository, 'sync'>;
  recorder: Pick<AccountRecorder, 'refreshIncome'>;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The account's results over a range (equity curve and drawdown, daily PnL, per-symbol and per-bot breakdown, win
 * rate, profit factor, Sharpe, Sortino) from what the account recorder and the bots' logs stored; `analytics-figures.ts` does the arithmetic.
 * The account is the one the request resolved (the user's current environment's), and the bots those trading there
 */
export class AnalyticsService {
  constructor(private readonly deps: AnalyticsServiceDeps) {}

  async analytics(account: TradingAccount, query: AnalyticsQuery): Promise<Analytics> {
    const { db, repo } = this.deps;
    const to = query.to ?? this.deps.clock.now().getTime();
    const asked = query.from ?? Math.max(0, to - DASHBOARD_DEFAULT_RANGE_MS);
    await this.refresh(account);
    // "All" (from 0) starts at the first record: buckets and days then cover the history, not 1970 onwards
    const first = await repo.firstRecord(db, account);
    const from = Math.min(to, Math.max(asked, first ?? asked));
    const range = { from, to };
    const bucketMs = equityBucketMs(from, to);
    const [buckets, dayEquity, daily, bySymbol, bots, sync] = await Promise.all([
      repo.equityBuckets(db, account, { from, to, bucketMs }),
      repo.dayEquity(db, account, range),
      repo.daily(db, account, range),
      repo.bySymbol(db, account, range),
      // Bots run without an exchange (paper): their fills count from the asked start, not the first account record
      repo.byBot(db, account, { from: asked, to }),
      this.deps.recorderRepo.sync(db, account),
    ]);
    return analyticsFigures({
      from,
      to,
      bucketMs,
      buckets,
      dayEquity,
      daily,
      symbols: bySymbol.symbols,
      total: bySymbol.total,
      bots,
      syncedTo: sync?.synced_to ?? null,
    });
  }

  /** Best effort: a failed import (keys, exchange) leaves the stored figures, which are still answered */
  private async refresh(account: TradingAccount): Promise<void> {
    try {
      await this.deps.recorder.refreshIncome(account, ANALYTICS_FRESH_MS);
    } catch (err) {
      this.deps.log.warn(
        {
          userId: account.userId,
          environment: account.environment,
          err: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
        },
        'analytics: importing the latest income failed; answering from what is stored',
      );
    }
  }
}
