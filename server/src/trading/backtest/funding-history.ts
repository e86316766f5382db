import type { FundingRates } from '@kestrel/engine';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import type { Span } from '../../core/market-data/kline-repository';

/** Binance's largest fundingRate page */
export const FUNDING_PAGE_LIMIT = 1000;
const MINUTE_MS = 60_000;

/**
 * The exchange's settled funding rates for the funding times in [start, end), for the engine's `fundingRates`
 * (a year is about 1100 entries: two requests). Binance stamps a funding a few ms after the hour; the times are
 * floored to the minute so the engine's 00/08/16 h schedule finds the rate settled at that time, not the one before.
 */
export async function fundingHistory(
  exchange: Pick<ExchangeAdapter, 'fundingRateHistory'>,
  symbol: string,
  span: Span,
  signal?: AbortSignal,
): Promise<FundingRates> {
  const time: number[] = [];
  const rate: number[] = [];
  let cursor = span.start;
  while (cursor < span.end) {
    signal?.throwIfAborted();
    const page = await exchange.fundingRateHistory(symbol, {
      startTime: cursor,
      endTime: span.end - 1,
      limit: FUNDING_PAGE_LIMIT,
    });
    for (const f of page) {
      if (f.fundingTime < cursor || f.fundingTime >= span.end) continue;
      time.push(Math.floor(f.fundingTime / MINUTE_MS) * MINUTE_MS);
      rate.push(Number(f.fundingRate));
    }
    const last = page.at(-1)?.fundingTime;
    if (page.length < FUNDING_PAGE_LIMIT || last === undefined || last < cursor) break;
    cursor = last + 1;
  }
  return { time, rate };
}
