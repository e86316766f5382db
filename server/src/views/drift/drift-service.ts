import type { KlineInterval, TradingEnvironment } from '@kestrel/contracts';
import { BacktestRequestSchema } from '@kestrel/contracts/backtest';
import type { Bot, BotEvent, DriftReport } from '@kestrel/contracts/bots';
import { BarSeries, builtInStrategies, type Fill, intervalToMs, runBacktest } from '@kestrel/engine';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import { runSettingsWith } from '../../trading/backtest/backtest-inputs';
import type { BacktestService } from '../../trading/backtest/backtest-service';
import { loggedFill } from '../../trading/bots/bot-log';
import type { BotService } from '../../trading/bots/bot-service';
import { firstTradedBar, sessionBars } from '../../trading/bots/session-bars';
import { type BotFill, compareTrades, MATCH_WINDOW_BARS, tradesFromFills } from './drift-figures';

/** Log pages read for a bot's fills (500 events each): a run with more is compared on its latest part */
const MAX_EVENT_PAGES = 200;
const EVENT_PAGE = 500;

export interface DriftServiceDeps {
  /** Bot data only through the bots plugin's service: the bot, its log */
  bots: Pick<BotService, 'get' | 'events'>;
  /** The backtester's own checks, market inputs (kline cache, settled funding, brackets) */
  backtests: Pick<BacktestService, 'resolveRun' | 'loadRunInputs'>;
  /** The name an environment's exchange is known by in the kline cache (`BacktestServiceDeps.exchangeEnvOf`) */
  exchangeEnvOf(environment: TradingEnvironment): string;
  clock: Clock;
}

/** The fields the comparison reads, of a logged or an engine fill, on the open `time` of its bar */
const botFill = (time: number, f: Omit<BotFill, 'time'>): BotFill => ({
  time,
  side: f.side,
  quantity: f.quantity,
  price: f.price,
  fee: f.fee,
  realizedPnl: f.realizedPnl,
  positionAfter: f.positionAfter,
});

/**
 * A fill from a bot's `order_filled` event, on the open time of the bar it was handled on (as a backtest's fills
 * are); a line without the position after it is not compared
 */
export function fillOfEvent(e: BotEvent): BotFill | undefined {
  const f = loggedFill(e.data);
  if (!f || f.positionAfter === undefined) return undefined;
  return botFill(f.barTime ?? e.time, { ...f, positionAfter: f.positionAfter });
}

/**
 * The drift report (issue 20, item 5): a bot's fills over its last run against a backtest of the same strategy and
 * parameters on the same klines, so a trader sees where live (or paper) differs from the simulation. The backtest
 * is the one /backtesting would run (its default costs, settled funding, the symbol's brackets) with the bot's
 * budget and leverage, started the strategy's warm-up before the run so both act from the same first bar
 */
export class DriftService {
  constructor(private readonly deps: DriftServiceDeps) {}

  async report(userId: string, botId: string): Promise<DriftReport> {
    const bot = await this.deps.bots.get(userId, botId);
    if (bot.startedAt === null) {
      throw new HttpError(409, 'BOT_NEVER_RAN', `${bot.name} has not run yet: start it, then compare it`);
    }
    const type = builtInStrategies.get(bot.strategy);
    if (!type) {
      throw new HttpError(
        409,
        'DRIFT_UNAVAILABLE',
        `The strategy "${bot.strategy}" no longer exists on this server`,
      );
    }
    const interval = bot.interval as KlineInterval;
    const intervalMs = intervalToMs(interval);
    const now = this.deps.clock.now().getTime();
    const active = bot.state === 'running' || bot.state === 'starting' || bot.state === 'stopping';
    // The bot trades from the last bar closed at its start and warms its strategy on the bars before it (see
    // BotSession): the backtest starts as early
    const { tradeFrom: from, warmFrom: warmupFrom } = sessionBars(
      interval,
      { startedAt: bot.startedAt, tradesFrom: firstTradedBar(interval, bot.startedAt) },
      type.warmupBars(bot.params),
    );
    const to = active || bot.stoppedAt === null || bot.stoppedAt < bot.startedAt ? now : bot.stoppedAt;

    const botFills = await this.fills(userId, bot, from, to);
    const backtest = await this.backtest(userId, bot, warmupFrom, to);
    // The backtest's fills from the period only (none happen in the warm-up, which places no orders)
    const windowMs = MATCH_WINDOW_BARS * intervalMs;
    const comparison = compareTrades(
      tradesFromFills(botFills),
      tradesFromFills(backtest.fills.filter((f) => f.time >= from && f.time < to)),
      windowMs,
    );
    comparison.totals.backtest.funding = backtest.fundingPaid;
    comparison.totals.backtest.net -= backtest.fundingPaid;
    const notes = [
      'Funding is not in the bot’s log: its trades show none; the backtest’s total includes what it paid.',
    ];
    if (bot.mode === 'live') notes.push('Live fills are logged without their fee: the bot’s fees read 0.');
    if (botFills.length === 0) notes.push('The bot has no fill in this run yet.');
    return {
      botId: bot.id,
      mode: bot.mode,
      strategy: bot.strategy,
      symbol: bot.symbol,
      interval,
      period: { from, to },
      backtest: {
        bars: backtest.bars,
        warmupFrom,
        makerFeeRate: backtest.costs.makerFeeRate,
        takerFeeRate: backtest.costs.takerFeeRate,
        slippageBps: backtest.costs.slippageBps,
        funding: backtest.costs.funding,
      },
      matchWindowMs: windowMs,
      ...comparison,
      notes,
    };
  }

  /** The bot's fills in [from, to), oldest first, read page by page from its log (newest first) */
  private async fills(userId: string, bot: Bot, from: number, to: number): Promise<BotFill[]> {
    const out: BotFill[] = [];
    let before: number | undefined;
    for (let page = 0; page < MAX_EVENT_PAGES; page++) {
      const events = await this.deps.bots.events(userId, bot.id, EVENT_PAGE, before);
      for (const e of events) {
        if (e.kind !== 'order_filled') continue;
        const fill = fillOfEvent(e);
        if (fill && fill.time >= from && fill.time < to) out.push(fill);
      }
      const oldest = events.at(-1)?.time;
      if (events.length < EVENT_PAGE || oldest === undefined || oldest < from) break;
      before = oldest;
    }
    return out.reverse();
  }

  private async backtest(userId: string, bot: Bot, startTime: number, endTime: number) {
    const request = BacktestRequestSchema.parse({
      strategy: bot.strategy,
      params: bot.params,
      symbol: bot.symbol,
      interval: bot.interval,
      startTime,
      endTime,
      costs: { initialBalance: bot.budget, leverage: bot.leverage },
    });
    let resolved: Awaited<ReturnType<BacktestService['resolveRun']>>;
    try {
      // On the bot's own market: a mainnet bot is measured against mainnet's candles
      resolved = await this.deps.backtests.resolveRun(request, true, bot.environment);
    } catch (err) {
      // The backtester's refusal (too many bars, no closed bar yet) said about this bot's run
      if (err instanceof HttpError && err.code === 'INVALID_BACKTEST') {
        throw new HttpError(
          409,
          'DRIFT_UNAVAILABLE',
          `No backtest can cover this run: ${err.message.replace(/^Invalid backtest: /, '')}`,
        );
      }
      throw err;
    }
    const inputs = await this.deps.backtests.loadRunInputs(
      {
        user_id: userId,
        exchange_env: this.deps.exchangeEnvOf(bot.environment),
        symbol: bot.symbol,
        interval: bot.interval,
      },
      { run: resolved.run, span: resolved.span },
      AbortSignal.timeout(60_000),
      () => {},
    );
    if (inputs === null) throw new HttpError(503, 'DRIFT_UNAVAILABLE', 'Reading the klines took too long');
    if (!inputs.ok) throw new HttpError(409, 'DRIFT_UNAVAILABLE', inputs.message);
    const bars = BarSeries.fromColumns(resolved.intervalMs, inputs.bars);
    const result = runBacktest(resolved.type, resolved.params, bars, runSettingsWith(resolved.run, inputs));
    return {
      fills: result.fills.map((f: Fill) => botFill(f.time, f)),
      fundingPaid: result.metrics.fundingPaid,
      bars: bars.length,
      costs: request.costs,
    };
  }
}
