/** Funding settles every 8 hours at 00:00, 08:00 and 16:00 UTC unless the symbol says otherwise */
export const DEFAULT_FUNDING_INTERVAL_HOURS = 8;

/** First funding time at or after `time` (ms); UTC days are whole multiples of 1, 4 and 8 hours since the epoch */
export function nextFundingTime(time: number, intervalHours = DEFAULT_FUNDING_INTERVAL_HOURS): number {
  const period = intervalHours * 3_600_000;
  return Math.ceil(time / period) * period;
}

/** Funding fee paid by the account (negative means received): positionAmt × markPrice × rate */
export function fundingFee(qty: number, markPrice: number, rate: number): number {
  return qty * markPrice * rate;
}
