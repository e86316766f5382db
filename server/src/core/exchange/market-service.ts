import type { MarketStatus, TradingEnvironment } from '@kestrel/contracts';
import type { TradingAccount } from '../environment/trading-account';
import type { AggregateTrade, ExchangeAdapter, Kline, OrderBookSnapshot, Ticker } from './exchange-adapter';
import type { ExchangeEnv } from './exchange-config';
import { viaExchange } from './exchange-http-error';
import { exchangeCallsAs, userCaller } from './weight-budget';

/** The book sizes Binance's `GET /fapi/v1/depth` takes */
const DEPTH_LIMITS = [5, 10, 20, 50, 100, 500, 1000] as const;

/**
 * The exchange an environment's market calls go to and what it is; throws `EnvironmentUnavailableError` for one
 * this server does not reach
 */
export type MarketOf = (environment: TradingEnvironment) => { exchange: ExchangeAdapter; env: ExchangeEnv };

/**
 * Public market data of the asking account's environment (the request resolves it: the user's current one;
 * testnet's and mainnet's prices differ), exchange
 * errors as HTTP errors (`exchange-http-error.ts`). Each call is charged to the asking user's share of the
 * exchange budget; answers are shared between users by the client's market cache, so many users watching one
 * symbol cost one upstream call per freshness window
 */
export class MarketService {
  constructor(
    private readonly marketOf: MarketOf,
    /** Elapsed-time source for the status call's latency (a duration, not the time of day) */
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {}

  ticker(account: TradingAccount, symbol: string): Promise<Ticker> {
    return this.#as(account, (exchange) => exchange.ticker(symbol));
  }

  /** The latest `limit` candles, oldest first; the last one may still be open */
  async klines<I extends string>(
    account: TradingAccount,
    symbol: string,
    interval: I,
    limit: number,
  ): Promise<{ symbol: string; interval: I; klines: Kline[] }> {
    const klines = await this.#as(account, (exchange) => exchange.klines(symbol, interval, limit));
    return { symbol, interval, klines };
  }

  /** The exchange's REST book: the smallest of Binance's sizes holding `levels` per side, cut to them */
  async depth(account: TradingAccount, symbol: string, levels: number): Promise<OrderBookSnapshot> {
    const limit = DEPTH_LIMITS.find((l) => l >= levels) ?? 1000;
    const book = await this.#as(account, (exchange) => exchange.depth(symbol, limit));
    return { ...book, bids: book.bids.slice(0, levels), asks: book.asks.slice(0, levels) };
  }

  /** The latest `limit` aggregate trades, oldest first */
  aggTrades(account: TradingAccount, symbol: string, limit: number): Promise<AggregateTrade[]> {
    return this.#as(account, (exchange) => exchange.aggTrades(symbol, limit));
  }

  /** Tickers in the order asked, each symbol once */
  tickers(account: TradingAccount, symbols: readonly string[]): Promise<Ticker[]> {
    const unique = [...new Set(symbols)];
    return this.#as(account, (exchange) => Promise.all(unique.map((s) => exchange.ticker(s))));
  }

  #as<T>(
    { userId, environment }: TradingAccount,
    call: (exchange: ExchangeAdapter) => Promise<T>,
  ): Promise<T> {
    return viaExchange(async () => {
      const { exchange } = this.marketOf(environment);
      return exchangeCallsAs({ caller: userCaller(userId), lane: 'interactive' }, () => call(exchange));
    });
  }

  /**
   * Whether the account's environment's exchange answers, with the measured clock offset and latency;
   * unreachable is an answer, not an error
   */
  async status(account: TradingAccount): Promise<MarketStatus> {
    const { exchange, env } = await viaExchange(async () => this.marketOf(account.environment));
    const started = this.monotonicNow();
    try {
      const clockOffsetMs = await exchange.syncTime();
      return {
        exchange: 'binance',
        environment: env,
        reachable: true,
        clockOffsetMs,
        latencyMs: Math.round(this.monotonicNow() - started),
        message: 'Binance connectivity OK',
      };
    } catch (err) {
      return {
        exchange: 'binance',
        environment: env,
        reachable: false,
        clockOffsetMs: null,
        latencyMs: null,
        message: `Binance connectivity failed: exchange not reachable (${(err as Error).message})`,
      };
    }
  }
}
