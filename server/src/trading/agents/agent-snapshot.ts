import type { AgentAuxColumns, AgentSnapshot, BarColumns } from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { ExchangeAdapter, FundingRate } from '../../core/exchange/exchange-adapter';
import type { KlineSeriesKey, Span } from '../../core/market-data/kline-repository';

/** The symbol whose closes every agent sees as the market's direction (`btcClose`) */
export const MARKET_SYMBOL = 'BTCUSDT';
/** Binance settles funding every 8 h (some symbols 4 h): a window this much earlier holds the rate in force */
const FUNDING_LOOKBACK_MS = 8 * 3_600_000;
/** fundingRateHistory answers at most this many per call */
const FUNDING_PAGE = 1000;

export interface AgentSnapshotsDeps {
  exchange: Pick<ExchangeAdapter, 'fundingRateHistory'>;
  exchangeEnv: string;
  loadBars(key: KlineSeriesKey, span: Span): Promise<BarColumns>;
  logger: FastifyBaseLogger;
}

/**
 * Point-in-time snapshots for the agents (training and every decision alike, so a model sees at a decision what it
 * was trained on): the closed bars from the kline cache and the aux columns the exchange serves. Funding: the last
 * rate settled at or before each bar's close (public `fundingRateHistory`, kept per symbol and extended as time
 * passes). BTC closes at the same bar times for other symbols (the kline cache). Mark/index price and open interest
 * have no history call in the adapter: those columns are absent, never invented, and the engine reports their
 * features as unavailable. A column that cannot be read is absent too (the decision goes on without it).
 */
export class AgentSnapshots {
  private readonly funding = new Map<string, { from: number; to: number; rates: FundingRate[] }>();

  constructor(private readonly deps: AgentSnapshotsDeps) {}

  /** Closed bars of [span.start, span.end) of the agent's series, with their aux columns */
  async load(symbol: string, interval: string, intervalMs: number, span: Span): Promise<AgentSnapshot> {
    const { loadBars, exchangeEnv } = this.deps;
    const bars = await loadBars({ env: exchangeEnv, symbol, interval }, span);
    const n = bars.openTime.length;
    const aux: AgentAuxColumns = {};
    if (n > 0) {
      const funding = await this.fundingColumn(symbol, bars, intervalMs).catch((err: unknown) => {
        this.deps.logger.info({ err, symbol }, 'agent snapshot: funding rates not read');
        return undefined;
      });
      if (funding) aux.fundingRate = funding;
      if (symbol === MARKET_SYMBOL) aux.btcClose = bars.close.slice(0, n);
      else {
        const btc = await loadBars({ env: exchangeEnv, symbol: MARKET_SYMBOL, interval }, span).catch(
          () => undefined,
        );
        if (btc) aux.btcClose = alignCloses(bars, btc);
      }
    }
    return { intervalMs, bars, aux, length: n };
  }

  private async fundingColumn(
    symbol: string,
    bars: BarColumns,
    intervalMs: number,
  ): Promise<Float64Array | undefined> {
    const n = bars.openTime.length;
    const first = bars.openTime[0] as number;
    const lastClose = (bars.openTime[n - 1] as number) + intervalMs;
    const rates = await this.fundingRates(symbol, first - FUNDING_LOOKBACK_MS, lastClose);
    if (rates.length === 0) return undefined;
    const column = new Float64Array(n).fill(Number.NaN);
    let j = -1;
    for (let i = 0; i < n; i++) {
      const close = (bars.openTime[i] as number) + intervalMs;
      while (j + 1 < rates.length && (rates[j + 1] as FundingRate).fundingTime <= close) j++;
      if (j >= 0) column[i] = Number((rates[j] as FundingRate).fundingRate);
    }
    return column;
  }

  /** Settled rates of [from, to), oldest first; what was read before is kept and only the rest is asked for */
  private async fundingRates(symbol: string, from: number, to: number): Promise<FundingRate[]> {
    let cached = this.funding.get(symbol);
    if (!cached || from < cached.from) cached = { from, to: from, rates: [] };
    let next = cached.to;
    while (next < to) {
      const page = await this.deps.exchange.fundingRateHistory(symbol, {
        startTime: next,
        endTime: to - 1,
        limit: FUNDING_PAGE,
      });
      for (const r of page) if (r.fundingTime >= next) cached.rates.push(r);
      const last = page.at(-1);
      if (page.length < FUNDING_PAGE || !last) {
        next = to;
        break;
      }
      next = last.fundingTime + 1;
    }
    cached.to = Math.max(cached.to, next);
    this.funding.set(symbol, cached);
    return cached.rates.filter((r) => r.fundingTime >= from && r.fundingTime < to);
  }
}

/** BTC closes at the agent's bar times (NaN where BTC has no bar: the feature is then unavailable) */
function alignCloses(bars: BarColumns, btc: BarColumns): Float64Array {
  const byTime = new Map<number, number>();
  for (let i = 0; i < btc.openTime.length; i++) byTime.set(btc.openTime[i] as number, btc.close[i] as number);
  const out = new Float64Array(bars.openTime.length);
  for (let i = 0; i < out.length; i++) out[i] = byTime.get(bars.openTime[i] as number) ?? Number.NaN;
  return out;
}
