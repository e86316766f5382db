import { EngineInputError } from '../errors';
import {
  type DeflatedSharpe,
  deflatedSharpe,
  type PboReport,
  probabilityOfOverfitting,
  type RandomEntryReport,
  randomEntryBaseline,
  returnMoments,
} from './overfitting';
import { type Objective, rankResults, type SweepResult } from './sweep';

/** Promotion gates (ai-agent reference B4, product choices): a result passes only when all three hold */
export const OVERFITTING_GATES = { dsr: 0.95, pbo: 0.3, randomEntryP: 0.05 } as const;

export interface OverfittingReportOptions {
  /** Bars per return period the results' `returns` were sampled with */
  periodBars: number;
  /** Closes of the bars the sweep ran on (for the random-entry baseline) */
  close: ArrayLike<number>;
  /** Cost of one round trip as a fraction of the position (taker fee twice plus slippage) */
  roundTripCost?: number;
  /** Random-entry samples (default 200) and seed (default 1) */
  samples?: number;
  seed?: number;
}

export interface OverfittingReport {
  /** Combinations that ran (N of the deflated Sharpe ratio) */
  trials: number;
  /** Combinations the strategy refused (not trials) */
  refused: number;
  periodBars: number;
  /** Return periods T */
  periods: number;
  /** Index (in the results given) of the best combination by the objective */
  bestIndex: number;
  /** Its per-period Sharpe ratio, skewness and kurtosis */
  bestSharpe: number;
  bestSkewness: number;
  bestKurtosis: number;
  deflated: DeflatedSharpe;
  /** Null when there are fewer than two trials or too few periods for four blocks of two */
  pbo: PboReport | null;
  randomEntry: RandomEntryReport;
  /** Which gates the best combination passes (a null PBO does not pass) */
  passes: { dsr: boolean; pbo: boolean; randomEntry: boolean };
}

/**
 * Every overfitting statistic of one sweep, from its results' per-period returns (`runCombos` with `periodBars`):
 * the best combination by the objective, its PSR and DSR deflated by all trials, PBO by CSCV over all trials and
 * the random-entry baseline with the best combination's trade count and exposure.
 */
export function overfittingReport(
  results: readonly SweepResult[],
  objective: Objective,
  options: OverfittingReportOptions,
): OverfittingReport {
  const valid: { index: number; result: SweepResult; returns: Float64Array }[] = [];
  results.forEach((result, index) => {
    if (result.metrics !== null && result.returns) valid.push({ index, result, returns: result.returns });
  });
  if (valid.length === 0) throw new EngineInputError('overfitting report: no combination ran');
  const best = rankResults(
    valid.map((v) => v.result),
    objective,
  )[0] as SweepResult;
  const bestEntry = valid.find((v) => v.result === best) as (typeof valid)[number];
  const moments = returnMoments(bestEntry.returns);
  const sharpes = valid.map((v) => returnMoments(v.returns).sharpe);
  const deflated = deflatedSharpe(moments, sharpes);
  const periods = bestEntry.returns.length;
  const pbo =
    valid.length >= 2 && periods >= 8 ? probabilityOfOverfitting(valid.map((v) => v.returns)) : null;
  const metrics = best.metrics as NonNullable<SweepResult['metrics']>;
  const randomEntry = randomEntryBaseline({
    close: options.close,
    periodBars: options.periodBars,
    trades: Math.max(1, metrics.tradeCount),
    exposure: metrics.exposure,
    roundTripCost: options.roundTripCost ?? 0,
    observedSharpe: moments.sharpe,
    samples: options.samples ?? 200,
    seed: options.seed ?? 1,
  });
  return {
    trials: valid.length,
    refused: results.length - valid.length,
    periodBars: options.periodBars,
    periods,
    bestIndex: bestEntry.index,
    bestSharpe: moments.sharpe,
    bestSkewness: moments.skewness,
    bestKurtosis: moments.kurtosis,
    deflated,
    pbo,
    randomEntry,
    passes: {
      dsr: deflated.dsr >= OVERFITTING_GATES.dsr,
      pbo: pbo !== null && pbo.pbo <= OVERFITTING_GATES.pbo,
      randomEntry: randomEntry.pValue < OVERFITTING_GATES.randomEntryP,
    },
  };
}
