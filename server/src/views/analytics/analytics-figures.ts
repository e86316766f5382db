import type { Analytics, AnalyticsBot, AnalyticsDay, AnalyticsSymbol } from '@kestrel/contracts';
import { computeMetrics, type TradeStats } from '@kestrel/engine';
import { Decimal } from 'decimal.js';
import {
  type BotFillsRow,
  DAY_MS,
  type DayEquityRow,
  type DayRow,
  type EquityBucketRow,
  type IncomeSumsRow,
  type SymbolRow,
} from './analytics-repository';

/** Own configuration: the exchange simulator sets the shared default one when it runs in the same process */
const Exact = Decimal.clone({ precision: 64 });

/** 4 decimals, never a signed zero */
function fixed4(value: Decimal | number): string {
  const d = new Exact(value);
  const text = d.toFixed(4);
  return /^-0\.0+$/.test(text) ? text.slice(1) : text;
}

const ratioOrNull = (value: number): string | null => (Number.isFinite(value) ? fixed4(value) : null);

export const dayOf = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS;

export interface AnalyticsInput {
  from: number;
  to: number;
  bucketMs: number;
  buckets: readonly EquityBucketRow[];
  dayEquity: readonly DayEquityRow[];
  daily: readonly DayRow[];
  symbols: readonly SymbolRow[];
  total: IncomeSumsRow;
  /** Bots with fills in the range; absent: none */
  bots?: readonly BotFillsRow[];
  syncedTo: number | null;
}

/** A bot's row as the page reads it: fees paid as a negative commission, like Binance's income */
export function botFigures(b: BotFillsRow): AnalyticsBot {
  const commission = new Exact(b.fees).neg();
  return {
    botId: b.botId,
    name: b.name,
    symbol: b.symbol,
    mode: b.mode,
    fills: b.fills,
    realizedPnl: b.realizedPnl,
    commission: commission.isZero() ? '0' : commission.toFixed(),
    net: new Exact(b.realizedPnl).plus(commission).toFixed(),
    closingFills: b.closingFills,
    wins: b.wins,
    winRate: b.closingFills > 0 ? fixed4(b.wins / b.closingFills) : null,
  };
}

/** The engine's trade counts from closing fills: a fill wins when its realized PnL is above zero */
const tradeStatsOf = (s: IncomeSumsRow): TradeStats => ({
  count: s.closingFills,
  wins: s.wins,
  grossProfit: Number(s.grossProfit),
  grossLoss: Number(s.grossLoss),
});

const incomeSums = (s: IncomeSumsRow) => ({
  realizedPnl: s.realizedPnl,
  commission: s.commission,
  fundingFee: s.fundingFee,
  other: s.other,
  net: s.net,
});

/**
 * Win rate, profit factor, Sharpe and Sortino through the engine's `computeMetrics`, so an account and a backtest
 * read the same way. It takes returns from an equity series, so the daily returns are compounded into an index
 * starting at 1 (each step is exactly that day's return); with day-long bars it annualises with 365 periods. Its
 * trade figures take counts and sums (`TradeStats`), here of closing fills
 */
export function engineFigures(
  returns: readonly number[],
  stats: TradeStats,
): { sharpe: string | null; sortino: string | null; winRate: string | null; profitFactor: string | null } {
  const equity = new Float64Array(returns.length);
  let e = 1;
  returns.forEach((r, i) => {
    e *= 1 + r;
    equity[i] = e;
  });
  const m = computeMetrics({
    equity,
    length: equity.length,
    intervalMs: DAY_MS,
    initialBalance: 1,
    trades: stats,
    barsInPosition: 0,
    feesPaid: 0,
    fundingPaid: 0,
    liquidations: 0,
  });
  const enoughDays = returns.length >= 2;
  return {
    sharpe: enoughDays ? ratioOrNull(m.sharpe) : null,
    sortino: enoughDays ? ratioOrNull(m.sortino) : null,
    winRate: stats.count > 0 ? ratioOrNull(m.winRate) : null,
    profitFactor: m.profitFactor === null ? null : ratioOrNull(m.profitFactor),
  };
}

/** The analytics answer from the recorder's rows (the repository does the sums; this is the arithmetic on them) */
export function analyticsFigures(input: AnalyticsInput): Analytics {
  const { from, to } = input;
  const equity = input.buckets.map((b) => ({
    time: b.time,
    equity: b.equity,
    equityLow: b.low,
    drawdown: b.drawdown,
    drawdownRatio: fixed4(b.drawdownRatio),
  }));
  const maxDrawdown =
    input.buckets.length === 0
      ? null
      : {
          amount: Exact.max(...input.buckets.map((b) => b.drawdown)).toFixed(),
          ratio: fixed4(Math.max(...input.buckets.map((b) => b.drawdownRatio))),
        };

  // Start-of-day equity: the day's first snapshot, else the last one of an earlier day
  const firstDay = dayOf(from);
  const lastDay = dayOf(to);
  const equityByDay = new Map(input.dayEquity.map((d) => [d.day, d]));
  const incomeByDay = new Map(input.daily.map((d) => [d.day, d]));
  const startEquity = new Map<number, string>();
  let carry: string | undefined;
  for (const d of input.dayEquity) {
    if (d.day >= firstDay) startEquity.set(d.day, d.first);
    else carry = d.last;
  }
  const days: AnalyticsDay[] = [];
  const returns: number[] = [];
  for (let day = firstDay; day <= lastDay; day += DAY_MS) {
    const start = startEquity.get(day) ?? carry;
    const income = incomeByDay.get(day);
    const seen = equityByDay.get(day);
    if (seen) carry = seen.last;
    const net = income?.net ?? '0';
    const ret = start !== undefined && new Exact(start).gt(0) ? new Exact(net).div(start) : undefined;
    if (ret !== undefined) returns.push(ret.toNumber());
    if (!income && !seen) continue;
    days.push({
      day,
      ...incomeSums(
        income ?? {
          realizedPnl: '0',
          commission: '0',
          fundingFee: '0',
          other: '0',
          net: '0',
          transfers: '0',
          closingFills: 0,
          wins: 0,
          grossProfit: '0',
          grossLoss: '0',
        },
      ),
      startEquity: start ?? null,
      return: ret === undefined ? null : fixed4(ret),
    });
  }

  const symbols: AnalyticsSymbol[] = input.symbols
    .map((s) => ({
      symbol: s.symbol as string,
      ...incomeSums(s),
      closingFills: s.closingFills,
      wins: s.wins,
      winRate: engineFigures([], tradeStatsOf(s)).winRate,
    }))
    .sort((a, b) => new Exact(b.net).cmp(a.net) || a.symbol.localeCompare(b.symbol));

  const t = input.total;
  const figures = engineFigures(returns, tradeStatsOf(t));
  return {
    from,
    to,
    bucketMs: input.bucketMs,
    equity,
    maxDrawdown,
    daily: days,
    symbols,
    bots: (input.bots ?? [])
      .map(botFigures)
      .sort((a, b) => new Exact(b.net).cmp(a.net) || a.name.localeCompare(b.name)),
    totals: {
      ...incomeSums(t),
      closingFills: t.closingFills,
      wins: t.wins,
      winRate: figures.winRate,
      transfers: t.transfers,
      grossProfit: t.grossProfit,
      grossLoss: t.grossLoss,
      profitFactor: figures.profitFactor,
    },
    ratios: { sharpe: figures.sharpe, sortino: figures.sortino, days: returns.length },
    syncedTo: input.syncedTo,
  };
}
