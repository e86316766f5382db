import type { DriftMatch, DriftReport, DriftTrade } from '@kestrel/contracts/bots';

/** One fill from a bot's log (`order_filled` data), numbers */
export interface BotFill {
  /** Open time of the bar the fill happened on */
  time: number;
  side: 'buy' | 'sell';
  quantity: number;
  price: number;
  /** Paid, positive; 0 when the log has none (live fills) */
  fee: number;
  realizedPnl: number;
  /** Signed position after the fill */
  positionAfter: number;
}

/** Entries further apart than this many bars are different trades */
export const MATCH_WINDOW_BARS = 3;

// Quantities are rounded to the symbol's step; anything this small is float noise, not a position
const FLAT = 1e-9;
const sign = (q: number) => (Math.abs(q) < FLAT ? 0 : Math.sign(q));

interface Building {
  side: 'long' | 'short';
  entryTime: number;
  entryQty: number;
  entryNotional: number;
  exitQty: number;
  exitNotional: number;
  maxQty: number;
  realizedPnl: number;
  fees: number;
}

/**
 * A bot's round trips from its fills, flat to flat, as the engine counts a backtest's trades: a fill that flips the
 * position closes the trade with its closing part and opens the next with the rest (its fee split in proportion).
 * Fills must be oldest first; a trade still open at the end is returned with no exit
 */
export function tradesFromFills(fills: readonly BotFill[]): DriftTrade[] {
  const trades: DriftTrade[] = [];
  let open: Building | undefined;
  const finish = (t: Building, exitTime: number | null) => {
    trades.push({
      side: t.side,
      entryTime: t.entryTime,
      exitTime,
      entryPrice: t.entryNotional / t.entryQty,
      exitPrice: exitTime === null || t.exitQty === 0 ? null : t.exitNotional / t.exitQty,
      quantity: t.maxQty,
      realizedPnl: t.realizedPnl,
      fees: t.fees,
      funding: null,
    });
  };
  // The side is the position's after the fill: a flip's new trade, or a log that starts mid-position
  const start = (f: BotFill, qty: number, fee: number): Building => ({
    side: f.positionAfter > 0 ? 'long' : 'short',
    entryTime: f.time,
    entryQty: qty,
    entryNotional: qty * f.price,
    exitQty: 0,
    exitNotional: 0,
    maxQty: qty,
    realizedPnl: 0,
    fees: fee,
  });
  for (const f of fills) {
    const signed = f.side === 'buy' ? f.quantity : -f.quantity;
    const before = f.positionAfter - signed;
    if (!open || sign(before) === 0) {
      // From flat (or a log that starts mid-position: counted from here)
      if (sign(f.positionAfter) !== 0) open = start(f, Math.abs(f.positionAfter), f.fee);
      continue;
    }
    if (sign(signed) === sign(before)) {
      open.entryQty += f.quantity;
      open.entryNotional += f.quantity * f.price;
      open.maxQty = Math.max(open.maxQty, Math.abs(f.positionAfter));
      open.fees += f.fee;
      continue;
    }
    const closing = Math.min(f.quantity, Math.abs(before));
    const closingShare = f.quantity > 0 ? closing / f.quantity : 1;
    open.exitQty += closing;
    open.exitNotional += closing * f.price;
    open.realizedPnl += f.realizedPnl;
    open.fees += f.fee * closingShare;
    if (sign(f.positionAfter) === sign(before)) continue;
    finish(open, f.time);
    open =
      sign(f.positionAfter) === 0
        ? undefined
        : start(f, Math.abs(f.positionAfter), f.fee * (1 - closingShare));
  }
  if (open) finish(open, null);
  return trades;
}

/** Basis points of `actual` against `reference`, positive when worse for the trader (`paying`: a higher price is worse) */
function slippageBps(actual: number, reference: number, paying: boolean): number {
  if (reference === 0) return 0;
  const bps = ((actual - reference) / reference) * 10_000;
  return paying ? bps : -bps;
}

function match(bot: DriftTrade, backtest: DriftTrade): DriftMatch {
  const long = bot.side === 'long';
  const bothClosed =
    bot.exitTime !== null &&
    backtest.exitTime !== null &&
    bot.exitPrice !== null &&
    backtest.exitPrice !== null;
  return {
    bot,
    backtest,
    entryTimeDiffMs: bot.entryTime - backtest.entryTime,
    exitTimeDiffMs: bothClosed ? (bot.exitTime as number) - (backtest.exitTime as number) : null,
    entryPriceDiff: bot.entryPrice - backtest.entryPrice,
    exitPriceDiff: bothClosed ? (bot.exitPrice as number) - (backtest.exitPrice as number) : null,
    // A long buys in (a higher price is worse) and sells out (a lower price is worse); a short the other way
    entrySlippageBps: slippageBps(bot.entryPrice, backtest.entryPrice, long),
    exitSlippageBps: bothClosed
      ? slippageBps(bot.exitPrice as number, backtest.exitPrice as number, !long)
      : null,
    realizedPnlDiff: bot.realizedPnl - backtest.realizedPnl,
    feesDiff: bot.fees - backtest.fees,
  };
}

/**
 * Pairs bot and backtest trades of the same side whose entries are at most `windowMs` apart, the closest pairs
 * first (each trade in one pair at most); the rest are unmatched on their side. Results are in entry order
 */
export function matchTrades(
  bot: readonly DriftTrade[],
  backtest: readonly DriftTrade[],
  windowMs: number,
): { matched: DriftMatch[]; botOnly: DriftTrade[]; backtestOnly: DriftTrade[] } {
  const pairs: { i: number; j: number; gap: number }[] = [];
  // Both lists are in entry order: only the backtest trades inside the window are candidates
  let lo = 0;
  for (let i = 0; i < bot.length; i++) {
    const b = bot[i] as DriftTrade;
    while (lo < backtest.length && (backtest[lo] as DriftTrade).entryTime < b.entryTime - windowMs) lo++;
    for (let j = lo; j < backtest.length; j++) {
      const t = backtest[j] as DriftTrade;
      if (t.entryTime > b.entryTime + windowMs) break;
      if (t.side === b.side) pairs.push({ i, j, gap: Math.abs(t.entryTime - b.entryTime) });
    }
  }
  pairs.sort((x, y) => x.gap - y.gap || x.i - y.i || x.j - y.j);
  const botTaken = new Set<number>();
  const btTaken = new Set<number>();
  const matched: { i: number; m: DriftMatch }[] = [];
  for (const p of pairs) {
    if (botTaken.has(p.i) || btTaken.has(p.j)) continue;
    botTaken.add(p.i);
    btTaken.add(p.j);
    matched.push({ i: p.i, m: match(bot[p.i] as DriftTrade, backtest[p.j] as DriftTrade) });
  }
  matched.sort((x, y) => x.i - y.i);
  return {
    matched: matched.map((x) => x.m),
    botOnly: bot.filter((_, i) => !botTaken.has(i)),
    backtestOnly: backtest.filter((_, j) => !btTaken.has(j)),
  };
}

function totalsOf(trades: readonly DriftTrade[]): DriftReport['totals']['bot'] {
  let realizedPnl = 0;
  let fees = 0;
  let funding: number | null = 0;
  for (const t of trades) {
    realizedPnl += t.realizedPnl;
    fees += t.fees;
    funding = t.funding === null || funding === null ? null : funding + t.funding;
  }
  return {
    trades: trades.length,
    realizedPnl,
    fees,
    funding,
    net: realizedPnl - fees - (funding ?? 0),
  };
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

/** The report's comparison part from both sides' trades */
export function compareTrades(
  bot: readonly DriftTrade[],
  backtest: readonly DriftTrade[],
  windowMs: number,
): Pick<DriftReport, 'matched' | 'botOnly' | 'backtestOnly' | 'totals'> {
  const { matched, botOnly, backtestOnly } = matchTrades(bot, backtest, windowMs);
  return {
    matched,
    botOnly,
    backtestOnly,
    totals: {
      bot: totalsOf(bot),
      backtest: totalsOf(backtest),
      meanEntrySlippageBps: mean(matched.map((m) => m.entrySlippageBps)),
      meanExitSlippageBps: mean(
        matched.flatMap((m) => (m.exitSlippageBps === null ? [] : [m.exitSlippageBps])),
      ),
      meanEntryDelayMs: mean(matched.map((m) => m.entryTimeDiffMs)),
    },
  };
}
