import type { MarkPriceNotice } from '@kestrel/contracts';

/** What the mark-price push tells a futures trader: the mark, the funding rate and when it is next charged */
export interface MarkInfo {
  markPrice: number;
  /** A fraction per funding interval: 0.0001 is 0.01% */
  fundingRate: number | undefined;
  /** ms since epoch */
  nextFundingTime: number | undefined;
}

function finiteNumber(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** The push's figures; the funding fields are extras the contract lets through unchecked, so they are read warily */
export function markInfo(notice: MarkPriceNotice | undefined): MarkInfo | undefined {
  const markPrice = finiteNumber(notice?.markPrice);
  if (!notice || markPrice === undefined) return undefined;
  const next = finiteNumber(notice.nextFundingTime);
  return {
    markPrice,
    fundingRate: finiteNumber(notice.fundingRate),
    nextFundingTime: next !== undefined && next > 0 ? next : undefined,
  };
}

/** Time left to a moment as h:mm:ss ("0:00:00" once it has passed) */
export function countdown(until: number, now: number): string {
  const total = Math.max(0, Math.floor((until - now) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
