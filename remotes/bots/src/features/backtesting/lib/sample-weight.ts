import { formatInteger } from '@kestrel/ui';

/**
 * Below this many closed trades a return, win rate or Sharpe ratio says more about luck than about the strategy:
 * every headline figure carries its trade count and is marked as not meaningful under it
 */
export const MEANINGFUL_TRADES = 30;

export type SampleWeight = 'none' | 'thin' | 'enough';

export const sampleWeight = (tradeCount: number): SampleWeight =>
  tradeCount === 0 ? 'none' : tradeCount < MEANINGFUL_TRADES ? 'thin' : 'enough';

/** "Not meaningful: 1 trade, fewer than the 30 a figure needs" (null from 30 trades on, or with none at all) */
export function thinSampleWords(tradeCount: number): string | null {
  if (sampleWeight(tradeCount) !== 'thin') return null;
  const trades = `${formatInteger(tradeCount)} ${tradeCount === 1 ? 'trade' : 'trades'}`;
  return `Not meaningful: ${trades}, fewer than the ${MEANINGFUL_TRADES} a figure needs`;
}

/** Why a run shows no trade: the engine's reason, or (a run recorded before reasons were kept) a plain fact */
export const noTradeWords = (reason: string | null | undefined) =>
  reason ?? 'No trade closed in this period.';
