import type { MarketStatus } from '@kestrel/contracts';
import type { ExchangeAdapter, Kline, Ticker } from './exchange-adapter';
import type { ExchangeEnv } from './exchange-config';
import { viaExchange } from './exchange-http-error';
import { exchangeCallsAs, userCaller } from './weight-budget';

/**
 * Public market data of the configured exchange, exchange errors as HTTP errors (`exchange-http-error.ts`). Each
 * call is charged to the asking user's share of the exchange budget; answers are shared between users by the
 * client's market cache, so many users watching one symbol cost one upstream call per freshness window
 */
export class MarketService {
  constructor(
    private readonly exchange: ExchangeAdapter,
    private readonly environment: ExchangeEnv,
    /** Elapsed-time source for the status call's latency (a duration, not the time of day) */
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {}

  ticker(userId: string, symbol: string): Promise<Ticker> {
    return this.#as(userId, () => this.exchange.ticker(symbol));
  }

  /** The latest `limit` candles, oldest first; the last one may still be open */
  async klines<I extends string>(
    userId: string,
    symbol: string,
    interval: I,
    limit: number,
  ): Promise<{ symbol: string; interval: I; klines: Kline[] }> {
    const klines = await this.#as(userId, () => this.exchange.klines(symbol, interval, limit));
    return { symbol, interval, klines };
  }

  /** Tickers in the order asked, each symbol once */
  tickers(userId: string, symbols: readonly string[]): Promise<Ticker[]> {
    const unique = [...new Set(symbols)];
    return this.#as(userId, () => Promise.all(unique.map((s) => this.exchange.ticker(s))));
  }

  #as<T>(userId: string, call: () => Promise<T>): Promise<T> {
    return viaExchange(() => exchangeCallsAs({ caller: userCaller(userId), lane: 'interactive' }, call));
  }

  /** Whether the exchange answers, with the measured clock offset and latency; unreachable is an answer, not an error */
  async status(): Promise<MarketStatus> {
    const started = this.monotonicNow();
    try {
      const clockOffsetMs = await this.exchange.syncTime();
      return {
        exchange: 'binance',
        environment: this.environment,
        reachable: true,
        clockOffsetMs,
        latencyMs: Math.round(this.monotonicNow() - started),
        message: 'Binance connectivity OK',
      };
    } catch (err) {
      return {
        exchange: 'binance',
        environment: this.environment,
        reachable: false,
        clockOffsetMs: null,
        latencyMs: null,
        message: `Binance connectivity failed: exchange not reachable (${(err as Error).message})`,
      };
    }
  }
}
