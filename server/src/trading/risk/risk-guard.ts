import type { CreateOrderRequest, StoredRiskLimits } from '@kestrel/contracts';
import { isOpenPosition, realizedPnl } from '../../core/exchange/account-figures';
import type { ExchangeAdapter, ExchangeKeys } from '../../core/exchange/exchange-adapter';
import { viaExchange } from '../../core/exchange/exchange-http-error';
import { environmentOfKeys, type MarketFor } from '../../core/exchange/exchange-router';
import { readIncome } from '../../core/exchange/income-pages';
import { exchangeCallsAs, userCaller } from '../../core/exchange/weight-budget';
import { accountOfKeys } from '../../core/recorder/recorder-repository';
import type { Clock } from '../../lib/clock';
import { startOfUtcDay } from '../../lib/clock';
import type { Queryable } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { AccountOrderInput } from './pre-trade/pipeline';
import { type PreTradeCheck, passed, refused, type Verdict } from './pre-trade/verdict';
import {
  dailyLoss,
  drawdownPercent,
  fmt,
  hasLimits,
  isReducing,
  NO_LIMITS,
  notionalAfter,
  orderPrice,
} from './risk-figures';
import type { RiskRepository } from './risk-repository';

/** The error code of every refusal by an account limit */
export const RISK_LIMIT = 'RISK_LIMIT';

/**
 * The account limits, checked on the server before an order is sent: the pre-trade pipeline's `account_limits`
 * check (`accountLimits`, run by the order manager for manual, bot and agent orders) and `FuturesService.setLeverage`.
 * Orders that can only reduce exposure always pass; anything else is refused (HTTP 422 `RISK_LIMIT`, recorded as a
 * risk event) when it would break a limit. Exposure is judged from positions: resting orders that have not filled
 * do not count
 */
export class RiskGuard {
  /** The pipeline's check of the account limits (reading the exchange: positions, balance, today's income) */
  readonly accountLimits: PreTradeCheck<AccountOrderInput, Promise<Verdict>> = {
    name: 'account_limits',
    appliesTo: ['manual', 'bot', 'agent'],
    run: ({ userId, keys, order }) => this.judgeOrder(userId, keys, order),
  };

  constructor(
    private readonly exchange: ExchangeAdapter,
    private readonly clock: Clock,
    private readonly store: { db: Queryable; repo: RiskRepository },
    /** Public market data per environment: an order's price is read where the order goes */
    private readonly market: MarketFor = () => exchange,
  ) {}

  /** The user's limits (all null when never set) */
  async limits(userId: string): Promise<StoredRiskLimits> {
    return (await this.store.repo.limits(this.store.db, userId)) ?? NO_LIMITS;
  }

  /** Throws `RISK_LIMIT` (422) when the order would break one of the user's limits; returns quietly otherwise */
  async checkOrder(userId: string, keys: ExchangeKeys, order: CreateOrderRequest): Promise<void> {
    const verdict = await this.judgeOrder(userId, keys, order);
    if (!verdict.ok) throw new HttpError(422, RISK_LIMIT, verdict.reason);
  }

  /**
   * The verdict on the order by the user's limits (a refusal recorded as a risk event). Throws only when the
   * figures cannot be read (the exchange's error)
   */
  judgeOrder(userId: string, keys: ExchangeKeys, order: CreateOrderRequest): Promise<Verdict> {
    // The reads an order waits on go in the exchange budget's trading lane: market data never starves them
    return exchangeCallsAs({ caller: userCaller(userId), lane: 'trade' }, async () => {
      try {
        await this.#checkOrder(userId, keys, order);
        return passed('account_limits');
      } catch (err) {
        if (err instanceof RiskRefusal) return err.verdict;
        throw err;
      }
    });
  }

  async #checkOrder(userId: string, keys: ExchangeKeys, order: CreateOrderRequest): Promise<void> {
    const limits = await this.limits(userId);
    // No limits, or an order that can only reduce: nothing to read from the exchange
    if (!hasLimits(limits) || isReducing(order, undefined)) return;
    const [account, allPositions] = await viaExchange(() =>
      Promise.all([this.exchange.account(keys), this.exchange.positions(keys)]),
    );
    const positions = allPositions.filter(isOpenPosition);
    if (isReducing(order, positions)) return;
    const marginBalance = Number(account.totalMarginBalance);
    const refuse = async (limit: string, message: string, figures: Record<string, number | string>) => {
      const detail = { limit, order: describeOrder(order), ...figures };
      await this.record(userId, message, detail);
      throw new RiskRefusal(refused('account_limits', RISK_LIMIT, message, detail));
    };

    if (limits.dailyLossLimit !== null) {
      const now = this.clock.now().getTime();
      const window = { from: startOfUtcDay(now), to: now };
      const income = await viaExchange(() => readIncome(this.exchange, keys, window));
      const loss = dailyLoss(realizedPnl(income.entries, window).net, account.totalUnrealizedPnl);
      if (loss >= limits.dailyLossLimit) {
        await refuse(
          'dailyLossLimit',
          `Order refused: today’s loss is ${fmt(loss)} USDT, at or above your daily loss limit of ` +
            `${fmt(limits.dailyLossLimit)} USDT. Trading resumes at 00:00 UTC, or raise the limit`,
          { loss, dailyLossLimit: limits.dailyLossLimit },
        );
      }
    }
    if (limits.maxDrawdownPercent !== null) {
      // The peak of the account the order goes to: a mainnet order is not judged by testnet's equity
      const peak = await this.store.repo.equityPeak(this.store.db, accountOfKeys(userId, keys));
      const drawdown = drawdownPercent(peak, marginBalance);
      if (drawdown >= limits.maxDrawdownPercent) {
        await refuse(
          'maxDrawdownPercent',
          `Order refused: the account is ${fmt(drawdown)} % below its equity peak of ` +
            `${fmt(Math.max(peak ?? 0, marginBalance))} USDT, at or above your max drawdown of ` +
            `${fmt(limits.maxDrawdownPercent)} %. Raise the limit to trade again`,
          { drawdownPercent: drawdown, maxDrawdownPercent: limits.maxDrawdownPercent },
        );
      }
    }
    if (limits.maxLeverage === null && limits.maxPositionNotional === null) return;

    const held = positions.find((p) => p.symbol === order.symbol);
    const market =
      order.price === undefined && order.triggerPrice === undefined
        ? Number(
            held?.markPrice ??
              (await viaExchange(() => this.market(environmentOfKeys(keys)).ticker(order.symbol))).lastPrice,
          )
        : Number.NaN;
    const price = orderPrice(order, market);
    const after = notionalAfter(order, positions, price);
    if (limits.maxLeverage !== null) {
      if (marginBalance <= 0) {
        await refuse(
          'maxLeverage',
          `Order refused: the margin balance is ${fmt(marginBalance)} USDT, so any new exposure is above your ` +
            `leverage limit of ${fmt(limits.maxLeverage)}×`,
          { marginBalance, maxLeverage: limits.maxLeverage },
        );
      }
      const leverage = after.gross / marginBalance;
      if (leverage > limits.maxLeverage) {
        await refuse(
          'maxLeverage',
          `Order refused: it would take leverage to ${fmt(leverage, 1)}×, above your max leverage limit of ` +
            `${fmt(limits.maxLeverage)}×`,
          { leverage, maxLeverage: limits.maxLeverage, notionalAfter: after.gross, marginBalance },
        );
      }
    }
    if (limits.maxPositionNotional !== null && after.symbol > limits.maxPositionNotional) {
      await refuse(
        'maxPositionNotional',
        `Order refused: it would take the ${order.symbol} position to ${fmt(after.symbol)} USDT notional, above ` +
          `your max position notional limit of ${fmt(limits.maxPositionNotional)} USDT`,
        { symbolNotional: after.symbol, maxPositionNotional: limits.maxPositionNotional },
      );
    }
  }

  /** Setting a symbol's leverage above the max-leverage limit is refused like an order */
  async checkLeverage(userId: string, symbol: string, leverage: number): Promise<void> {
    const { maxLeverage } = await this.limits(userId);
    if (maxLeverage === null || leverage <= maxLeverage) return;
    await this.refuse(
      userId,
      `Leverage refused: ${symbol} at ${leverage}× is above your max leverage limit of ${fmt(maxLeverage)}×`,
      { limit: 'maxLeverage', symbol, leverage, maxLeverage },
    );
  }

  /** Records the refusal, then throws it */
  private async refuse(userId: string, message: string, detail: Record<string, unknown>): Promise<never> {
    await this.record(userId, message, detail);
    throw new HttpError(422, RISK_LIMIT, message);
  }

  /** The refusal as a risk event the user reads on /risk */
  private async record(userId: string, message: string, detail: Record<string, unknown>): Promise<void> {
    await this.store.repo.insertEvent(this.store.db, {
      userId,
      kind: 'refusal',
      message,
      detail,
      at: this.clock.now().getTime(),
    });
  }
}

/** A limit broken, carried out of the checks to their verdict */
class RiskRefusal extends Error {
  constructor(readonly verdict: Verdict) {
    super(verdict.ok ? 'passed' : verdict.reason);
  }
}

/** The order as the audit keeps it: what was asked, nothing else */
function describeOrder(order: CreateOrderRequest): string {
  const qty = order.quantity ?? 'all';
  const at = order.price ?? order.triggerPrice;
  return `${order.side} ${qty} ${order.symbol} ${order.type}${at ? ` @ ${at}` : ''}`;
}
