import type {
  KillSwitchResult,
  RiskEvent,
  RiskLimits,
  RiskOverview,
  RiskPosition,
  StoredRiskLimits,
} from '@kestrel/contracts';
import type { CredentialsService } from '../../core/credentials/credentials-service';
import type { TradingAccount } from '../../core/environment/trading-account';
import {
  isOpenPosition,
  marginRatio,
  positionLiquidation,
  realizedPnl,
} from '../../core/exchange/account-figures';
import { AccountReads } from '../../core/exchange/account-reads';
import type { ExchangeAdapter, ExchangeKeys, Kline, Position } from '../../core/exchange/exchange-adapter';
import { viaExchange } from '../../core/exchange/exchange-http-error';
import { environmentOfKeys, type MarketFor } from '../../core/exchange/exchange-router';
import { readIncome } from '../../core/exchange/income-pages';
import { exchangeCallsAs, userCaller } from '../../core/exchange/weight-budget';
import type { NotificationService } from '../../core/notifications/notification-service';
import type { Clock } from '../../lib/clock';
import { startOfUtcDay } from '../../lib/clock';
import type { Queryable } from '../../lib/database/database';
import type { DomainEvents } from '../../lib/domain-events';
import type { FuturesService } from '../futures/futures-service';
import {
  ATR_PERIOD,
  atrOf,
  dailyLoss,
  drawdownPercent,
  exposureBySymbol,
  fmt,
  historicalVar,
  limitUsage,
  VAR_DAYS,
} from './risk-figures';
import type { RiskGuard } from './risk-guard';
import type { RiskRepository } from './risk-repository';

/** 1h candles read for the ATR: Wilder's smoothing settles after a few periods, so more than 14 */
const ATR_CANDLES = ATR_PERIOD * 4;
const LIMIT_WORDS: Record<keyof RiskLimits, (v: number) => string> = {
  maxLeverage: (v) => `max leverage ${fmt(v)}×`,
  dailyLossLimit: (v) => `daily loss limit ${fmt(v)} USDT`,
  maxDrawdownPercent: (v) => `max drawdown ${fmt(v)} %`,
  maxPositionNotional: (v) => `max position notional ${fmt(v)} USDT`,
};

/** Why a call failed, in words fit for the audit (HTTP errors and exchange refusals carry such a message) */
const reason = (err: unknown): string =>
  err instanceof Error && err.message ? err.message : 'The exchange did not answer';

declare module '../../lib/domain-events' {
  interface DomainEventMap {
    /**
     * The user pressed the kill switch (`RiskService.killSwitch`): whatever trades for the user on its own stops
     * now, before the switch cancels the account's orders and closes its positions, so nothing places a new order
     * meanwhile (the bots stop every bot of the user). Emitted, awaited: a subscriber that throws is reported in
     * the switch's answer ("Could not stop the bots") and the switch goes on. Each subscriber reports how many bots
     * it stopped through `stopped`
     */
    'killswitch.requested': { userId: string; stopped(count: number): void };
  }
}

/**
 * The /risk page's server side: the account limits (stored, audited), the risk figures, the audit and the kill
 * switch. Orders go through `FuturesService`, so the guard sees them like any other
 */
export class RiskService {
  constructor(
    private readonly credentials: Pick<CredentialsService, 'keysFor'>,
    private readonly exchange: ExchangeAdapter,
    private readonly futures: FuturesService,
    private readonly guard: RiskGuard,
    private readonly clock: Clock,
    private readonly store: { db: Queryable; repo: RiskRepository },
    /** The overview is kept a few seconds per user: the page refetches it on every fill */
    private readonly reads: AccountReads = new AccountReads(),
    /** Tells the user (in-app list, webhooks) once the kill switch ran */
    private readonly notifier?: Pick<NotificationService, 'notify'>,
    /** Public market data per environment: candles of the account's own environment (ATR, VaR) */
    private readonly market: MarketFor = () => exchange,
    /** The kill switch emits 'killswitch.requested' through it (the bots stop first) */
    private readonly domainEvents?: Pick<DomainEvents, 'emit'>,
  ) {}

  limits(userId: string): Promise<StoredRiskLimits> {
    return this.guard.limits(userId);
  }

  /** Stores the limits and records what changed (nothing recorded when nothing changed) */
  /**
   * The limits `next` would raise or remove (a larger number, or none where there was one): what lets risk grow.
   * Saving such a change needs the password again (the route's step-up); tightening never does
   */
  async loosenedLimits(userId: string, next: RiskLimits): Promise<(keyof RiskLimits)[]> {
    const before = await this.guard.limits(userId);
    return (Object.keys(LIMIT_WORDS) as (keyof RiskLimits)[]).filter((k) => {
      const was = before[k];
      const now = next[k];
      return was !== null && (now === null || now > was);
    });
  }

  async saveLimits(userId: string, next: RiskLimits): Promise<StoredRiskLimits> {
    const before = await this.guard.limits(userId);
    const at = this.clock.now().getTime();
    await this.store.repo.saveLimits(this.store.db, userId, next, at);
    this.reads.changed(userId);
    const words = (k: keyof RiskLimits, v: number | null) => (v === null ? 'none' : LIMIT_WORDS[k](v));
    const changes = (Object.keys(LIMIT_WORDS) as (keyof RiskLimits)[])
      .filter((k) => before[k] !== next[k])
      .map((k) => (before[k] === null ? words(k, next[k]) : `${words(k, before[k])} → ${words(k, next[k])}`));
    if (changes.length > 0) {
      await this.store.repo.insertEvent(this.store.db, {
        userId,
        kind: 'limits',
        message: `Limits changed: ${changes.join('; ')}`,
        detail: { before: withoutTime(before), after: next },
        at,
      });
    }
    return { ...next, updatedAt: at };
  }

  events(userId: string, limit: number): Promise<RiskEvent[]> {
    return this.store.repo.events(this.store.db, userId, limit);
  }

  /**
   * Margin ratio, leverage, each position's distance to liquidation (% and ATRs of 1h candles), exposure, the
   * historical VaR, and how close each limit is to breaking
   */
  overview(account: TradingAccount): Promise<RiskOverview> {
    const { userId, environment } = account;
    return this.reads.read(`risk.overview.${environment}`, userId, this.clock.now().getTime(), () =>
      exchangeCallsAs({ caller: userCaller(userId), lane: 'interactive' }, () => this.#overview(account)),
    );
  }

  async #overview(trading: TradingAccount): Promise<RiskOverview> {
    const { userId } = trading;
    const k = await this.keys(trading);
    const asOf = this.clock.now().getTime();
    const today = { from: startOfUtcDay(asOf), to: asOf };
    const [account, allPositions, openOrders, income, limits, peak] = await Promise.all([
      viaExchange(() => this.exchange.account(k)),
      viaExchange(() => this.exchange.positions(k)),
      viaExchange(() => this.exchange.openOrders(k)),
      viaExchange(() => readIncome(this.exchange, k, today)),
      this.guard.limits(userId),
      this.store.repo.equityPeak(this.store.db, trading),
    ]);
    const positions = allPositions.filter(isOpenPosition);
    const symbols = [...new Set(positions.map((p) => p.symbol))];
    const market = this.market(environmentOfKeys(k));
    const [hourly, daily] = await viaExchange(() =>
      Promise.all([
        Promise.all(symbols.map((s) => market.klines(s, '1h', ATR_CANDLES))),
        Promise.all(symbols.map((s) => market.klines(s, '1d', VAR_DAYS + 1))),
      ]),
    );
    const atrBySymbol = new Map(symbols.map((s, i) => [s, atrOf(closedOnly(hourly[i] ?? [], asOf))]));
    const closes = new Map(
      symbols.map((s, i) => [
        s,
        new Map(closedOnly(daily[i] ?? [], asOf).map((c) => [c.openTime, Number(c.close)])),
      ]),
    );
    const marginBalance = Number(account.totalMarginBalance);
    const notionals = positions.map((p) => Number(p.notional));
    const gross = notionals.reduce((acc, n) => acc + Math.abs(n), 0);
    const net = Math.abs(notionals.reduce((acc, n) => acc + n, 0));
    const leverage = (n: number) => (marginBalance > 0 ? n / marginBalance : 0);
    const exposure = exposureBySymbol(positions);
    const loss = dailyLoss(realizedPnl(income.entries, today).net, account.totalUnrealizedPnl);
    const drawdown = drawdownPercent(peak, marginBalance);
    const usage = limitUsage(limits, {
      leverage: leverage(gross),
      loss,
      drawdown,
      largestNotional: Math.max(0, ...exposure.map((e) => e.long + e.short)),
    });
    const halt = usage.find(
      (u) => u.breached && (u.name === 'dailyLossLimit' || u.name === 'maxDrawdownPercent'),
    );
    return {
      asOf,
      marginBalance: account.totalMarginBalance,
      maintenanceMargin: account.totalMaintMargin,
      marginRatio: Number(marginRatio(account.totalMaintMargin, account.totalMarginBalance)),
      openOrders: openOrders.length,
      grossLeverage: leverage(gross),
      netLeverage: leverage(net),
      positions: positions.map((p) => riskPosition(p, atrBySymbol.get(p.symbol) ?? null)),
      exposure,
      valueAtRisk: historicalVar(
        positions.map((p) => ({ symbol: p.symbol, signedNotional: Number(p.notional) })),
        closes,
      ),
      limits,
      usage,
      halted: !halt
        ? null
        : halt.name === 'dailyLossLimit'
          ? `Daily loss limit reached (${fmt(loss)} of ${fmt(halt.limit ?? 0)} USDT): only orders that reduce ` +
            'exposure pass until 00:00 UTC'
          : `Max drawdown reached (${fmt(drawdown)} % of ${fmt(halt.limit ?? 0)} %): only orders that reduce ` +
            'exposure pass until the limit is raised',
    };
  }

  /**
   * Cancels every open order (conditional ones too), then closes every open position with a reduce-only market
   * order through `FuturesService` (the guard lets reducing orders through). One failure does not stop the rest;
   * every outcome is answered and recorded
   */
  killSwitch(account: TradingAccount): Promise<KillSwitchResult> {
    const { userId } = account;
    // Every call of the kill switch (its lists too) goes in the exchange budget's trading lane, and is tried even
    // while the exchange's circuit breaker is open: it is the way out, and one user's failures must not block it
    return exchangeCallsAs({ caller: userCaller(userId), lane: 'trade', protective: true }, () =>
      this.#killSwitch(account),
    ).finally(() => this.reads.changed(userId));
  }

  /**
   * The account's orders and positions: every list, cancel and close goes to that one account, even should its
   * owner switch environments meanwhile. The bots stopped first are all the user's (the event names the user)
   */
  async #killSwitch(account: TradingAccount): Promise<KillSwitchResult> {
    const { userId } = account;
    // Without keys there is nothing to do: a clear 400 rather than an answer full of failures
    await this.keys(account);
    const at = this.clock.now().getTime();
    const result: KillSwitchResult = {
      at,
      orders: [],
      positions: [],
      botsStopped: 0,
      failed: 0,
      errors: [],
    };
    // The bots first, so none places a new order while this runs
    try {
      await this.domainEvents?.emit('killswitch.requested', {
        userId,
        stopped: (count) => {
          result.botsStopped += count;
        },
      });
    } catch (err) {
      result.failed++;
      result.errors.push(`Could not stop the bots: ${reason(err)}`);
    }
    const listFailure = async (what: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        // Positions are still closed when the orders could not be listed, and the other way round
        result.failed++;
        result.errors.push(`Could not list the ${what}: ${reason(err)}`);
      }
    };
    await listFailure('open orders', async () => {
      const orders = await this.futures.openOrders(account, undefined);
      for (const o of orders) {
        try {
          await this.futures.cancelOrder(account, o.symbol, { orderId: o.orderId, kind: o.kind });
          result.orders.push({ symbol: o.symbol, orderId: o.orderId, kind: o.kind, ok: true });
        } catch (err) {
          result.failed++;
          result.orders.push({
            symbol: o.symbol,
            orderId: o.orderId,
            kind: o.kind,
            ok: false,
            error: reason(err),
          });
        }
      }
    });
    await listFailure('open positions', async () => {
      const positions = await this.futures.openPositions(account);
      for (const p of positions) {
        const amount = Number(p.amount);
        const hedge = p.positionSide !== 'BOTH';
        try {
          const order = await this.futures.placeOrder(
            account,
            {
              symbol: p.symbol,
              side: amount > 0 ? 'SELL' : 'BUY',
              type: 'MARKET',
              quantity: p.amount.replace('-', ''),
              // Hedge mode takes no reduceOnly: the position side says which leg is closed
              ...(hedge ? { positionSide: p.positionSide } : { reduceOnly: true }),
            },
            { source: 'kill_switch' },
          );
          result.positions.push({
            symbol: p.symbol,
            positionSide: p.positionSide,
            amount: p.amount,
            ok: true,
            orderId: order.orderId,
          });
        } catch (err) {
          result.failed++;
          result.positions.push({
            symbol: p.symbol,
            positionSide: p.positionSide,
            amount: p.amount,
            ok: false,
            error: reason(err),
          });
        }
      }
    });
    const done = `canceled ${result.orders.filter((o) => o.ok).length} of ${result.orders.length} orders, closed ${
      result.positions.filter((p) => p.ok).length
    } of ${result.positions.length} positions`;
    const message =
      result.failed === 0
        ? `Kill switch: ${done}`
        : `Kill switch: ${done}; ${result.failed} failed (see the details)`;
    await this.record(userId, result, message);
    await this.notifier?.notify(userId, 'kill_switch', {
      title: 'Kill switch',
      message,
      data: { orders: result.orders, positions: result.positions, failed: result.failed },
    });
    return result;
  }

  private async record(userId: string, result: KillSwitchResult, message: string): Promise<void> {
    // The audit row is written even when the exchange failed throughout: the user must see the attempt
    await this.store.repo.insertEvent(this.store.db, {
      userId,
      kind: 'kill_switch',
      message,
      detail: {
        orders: result.orders,
        positions: result.positions,
        botsStopped: result.botsStopped,
        errors: result.errors,
      },
      at: result.at,
    });
  }

  private async keys(account: TradingAccount): Promise<ExchangeKeys> {
    // The environment stays with the key: the exchange router sends it to that environment's host only
    const { apiKey, secretKey, environment } = await this.credentials.keysFor(account);
    return { apiKey, secretKey, environment };
  }
}

function withoutTime(l: StoredRiskLimits): RiskLimits {
  const { updatedAt: _, ...limits } = l;
  return limits;
}

/** Candles that have closed by `now` (the exchange also sends the one still forming) */
function closedOnly(klines: readonly Kline[], now: number): Kline[] {
  return klines.filter((k) => k.closeTime < now);
}

function riskPosition(p: Position, atr: number | null): RiskPosition {
  const { figures, liquidationDistance: distance, liquidationDistancePercent } = positionLiquidation(p);
  return {
    ...figures,
    unrealizedPnl: p.unrealizedPnl,
    liquidationDistancePercent,
    atr,
    liquidationDistanceAtr: distance === null || atr === null || atr <= 0 ? null : distance / atr,
  };
}
