import type { BarColumns } from '../bars/bars';
import { createRandom } from '../random/prng';
import type { AgentSnapshot } from './types';

export interface AgentWorldOptions {
  bars: number;
  seed: number;
  /** Autocorrelation of bar log returns: the planted signal (0: pure noise) */
  phi: number;
  /** Standard deviation of a bar's return innovation */
  sigma?: number;
  intervalMs?: number;
  /** Add funding, open interest, mark/index and BTC columns */
  aux?: boolean;
}

/**
 * A seeded market for the agent's tests and benches. With phi > 0 the next bar's return leans on the last one (a
 * signal the return features can learn); with phi = 0 it is a random walk where no model has an edge.
 */
export function agentWorld(options: AgentWorldOptions): AgentSnapshot {
  const n = options.bars;
  const sigma = options.sigma ?? 0.004;
  const intervalMs = options.intervalMs ?? 900_000;
  const random = createRandom(options.seed);
  const bars: BarColumns = {
    openTime: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  const aux = options.aux
    ? {
        fundingRate: new Float64Array(n),
        openInterest: new Float64Array(n),
        markPrice: new Float64Array(n),
        indexPrice: new Float64Array(n),
        btcClose: new Float64Array(n),
      }
    : {};
  let price = 20_000;
  let r = 0;
  let oi = 1e6;
  let btc = 60_000;
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < n; i++) {
    const open = price;
    r = options.phi * r + sigma * random.normal();
    price = open * Math.exp(r);
    const wick = sigma * 0.5;
    bars.openTime[i] = start + i * intervalMs;
    bars.open[i] = open;
    bars.close[i] = price;
    bars.high[i] = Math.max(open, price) * (1 + wick * random.next());
    bars.low[i] = Math.min(open, price) * (1 - wick * random.next());
    bars.volume[i] = 50 + 100 * random.next() + 2_000 * Math.abs(r);
    if (options.aux) {
      const a = aux as Required<AgentSnapshot['aux']>;
      a.fundingRate[i] = 0.0001 + 0.00005 * Math.sin(i / 200);
      oi *= Math.exp(0.002 * random.normal());
      a.openInterest[i] = oi;
      a.indexPrice[i] = price * (1 - 0.0002 * random.normal());
      a.markPrice[i] = price;
      btc *= Math.exp(sigma * random.normal());
      a.btcClose[i] = btc;
    }
  }
  return { intervalMs, bars, aux, length: n };
}
