import type { BotRiskLimits } from '@kestrel/contracts/bots';
import type { OrderRequest } from '@kestrel/engine';
import { closesOneWay } from '../risk-figures';
import { type PreTradeCheck, passed, refused, runChecks, type Verdict } from './verdict';

/**
 * The figures a bot's limits are judged on, from the bot's own account: a live bot's from its fills on the
 * exchange, a paper bot's from the paper broker (the same check on both)
 */
export interface BotFigures {
  /** Realized since 00:00 UTC plus unrealized, net of fees */
  todayPnl: number;
  equity: number;
  /** Signed */
  positionQty: number;
  markPrice: number | null;
}

export interface BotLimitsInput {
  /** The order asked for; undefined to judge the account alone (at a bar's close, before the strategy acts) */
  request: OrderRequest | undefined;
  figures: BotFigures;
  /** Highest equity of the session so far */
  peakEquity: number;
  limits: BotRiskLimits;
  /** The quantity as it would be sent (the symbol's step) */
  roundQty(qty: number): number;
}

/** Percent the equity stands below its peak: the one drawdown measure of a bot's limit and its agent's risk line */
export function drawdownPercentOf(peakEquity: number, equity: number): number {
  return peakEquity > 0 ? Math.max(0, ((peakEquity - equity) / peakEquity) * 100) : 0;
}

const fmt = (v: number) => v.toFixed(2);

/**
 * An order that only takes the position toward flat: reduce-only, close-position, or against the position and no
 * larger than it (it cannot flip it)
 */
export function isExit(request: OrderRequest, positionQty: number, qty: number): boolean {
  if (request.reduceOnly || request.closePosition) return true;
  return closesOneWay(request.side === 'sell', qty, positionQty);
}

/**
 * The bot's own limits (paper and live alike, agents included): daily loss (realized since 00:00 UTC +
 * unrealized) and drawdown from the equity peak, and, for an order, the position's notional should it fill whole
 * at its price (else the last close) against maxNotional. An exit (`isExit`) is never refused, as the agent rules
 * never refuse one: a stop-loss must go out during a breach, and the breach stops the bot at its next check of the
 * account alone (every bar's close). Synchronous: the strategy's `submit` hears the verdict at once
 */
export const botLimitsCheck: PreTradeCheck<BotLimitsInput> = {
  name: 'bot_limits',
  appliesTo: ['bot', 'agent'],
  run({ request, figures: f, peakEquity, limits, roundQty }): Verdict {
    const { dailyLossLimit, maxDrawdownPercent, maxNotional } = limits;
    const qty = roundQty(request?.quantity ?? 0);
    if (request && isExit(request, f.positionQty, qty)) return passed('bot_limits');
    if (dailyLossLimit !== null && -f.todayPnl >= dailyLossLimit) {
      return refused(
        'bot_limits',
        'dailyLossLimit',
        `Daily loss limit reached: ${fmt(f.todayPnl)} USDT of ${dailyLossLimit}`,
        { limit: 'dailyLossLimit', value: f.todayPnl, max: dailyLossLimit },
      );
    }
    const drawdown = drawdownPercentOf(peakEquity, f.equity);
    if (maxDrawdownPercent !== null && drawdown >= maxDrawdownPercent) {
      return refused(
        'bot_limits',
        'maxDrawdownPercent',
        `Max drawdown reached: ${fmt(drawdown)} % of ${maxDrawdownPercent} % (equity ${fmt(f.equity)} USDT, peak ${fmt(peakEquity)})`,
        { limit: 'maxDrawdownPercent', value: drawdown, max: maxDrawdownPercent },
      );
    }
    if (!request || maxNotional === null) return passed('bot_limits');
    const price = request.price ?? request.triggerPrice ?? f.markPrice ?? 0;
    const after = f.positionQty + (request.side === 'buy' ? qty : -qty);
    const notional = Math.abs(after) * price;
    if (notional > maxNotional && Math.abs(after) > Math.abs(f.positionQty)) {
      return refused(
        'bot_limits',
        'maxNotional',
        `Max notional exceeded: the order would make the position ${fmt(notional)} USDT, over ${maxNotional}`,
        { limit: 'maxNotional', value: notional, max: maxNotional, side: request.side, quantity: qty, price },
      );
    }
    return passed('bot_limits');
  },
};

/** A bot limit broken: the bot stops and says why (its log line's words and data) */
export interface BotBreach {
  message: string;
  data: Record<string, unknown>;
}

/**
 * The pipeline's checks for a bot's order (or its account alone) on the bot's figures: the breach to stop on, if
 * any, and the verdicts (the order manager records them on the intent)
 */
export function judgeBotOrder(
  origin: 'bot' | 'agent',
  input: BotLimitsInput,
): { breach: BotBreach | undefined; verdicts: Verdict[] } {
  const verdicts = runChecks([botLimitsCheck], origin, input);
  const refusal = verdicts.find((v) => !v.ok);
  return {
    breach: refusal && !refusal.ok ? { message: refusal.reason, data: refusal.data } : undefined,
    verdicts,
  };
}
