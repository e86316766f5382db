import type { TradingEnvironment } from '@kestrel/contracts';
import type { ExchangeAdapter, ExchangeKeys } from './exchange-adapter';
import type { ExchangeStreams } from './exchange-streams';

/** A keyed call for an environment this server has no exchange for (mainnet not configured) */
export class EnvironmentUnavailableError extends Error {
  constructor(
    readonly environment: TradingEnvironment,
    reason: string,
  ) {
    super(reason);
    this.name = 'EnvironmentUnavailableError';
  }
}

/**
 * The environment a key belongs to. A key without one is refused rather than guessed: guessing is how a mainnet key
 * would reach the testnet host. Every key from the vault is tagged (`CredentialsService.keysFor`)
 */
export function environmentOfKeys(keys: ExchangeKeys): TradingEnvironment {
  if (!keys.environment) {
    throw new Error('an exchange key without its environment: take keys from CredentialsService.keysFor');
  }
  return keys.environment;
}

/** Public market data of one environment (`ExchangeRouter.marketFor`) */
export type MarketFor = (environment: TradingEnvironment) => ExchangeAdapter;

/**
 * The one place a call finds its exchange (issue 23): every keyed call goes to the adapter of the environment its
 * key belongs to (`keys.environment`, set by the vault), so a mainnet key can never reach the testnet host or the
 * reverse, whichever service made the call. Callers keep using one `ExchangeAdapter`; choosing the environment is
 * choosing the key (`CredentialsService.keysFor(account)`), not a branch in each caller.
 * Public market data has no key to choose by: a caller that knows the environment (the user's current one, a bot's,
 * a key's) takes it from `marketFor(environment)`; the keyless methods here are testnet's (the default environment).
 * A key without an environment is refused.
 */
export class ExchangeRouter implements ExchangeAdapter {
  readonly streams?: ExchangeStreams;

  constructor(
    private readonly adapters: Partial<Record<TradingEnvironment, ExchangeAdapter>>,
    private readonly unavailable: (environment: TradingEnvironment) => string,
  ) {
    const market = this.market;
    const streams = market.streams;
    if (streams) {
      this.streams = {
        marketStream: (handlers) => streams.marketStream(handlers),
        userDataStream: (keys, handlers, options) => {
          const target = this.for(keys).streams;
          if (!target) throw new Error(`the ${environmentOfKeys(keys)} exchange has no live streams`);
          return target.userDataStream(keys, handlers, options);
        },
      };
    }
  }

  /** The adapter of one environment, or undefined when this server has none */
  adapterFor(environment: TradingEnvironment): ExchangeAdapter | undefined {
    return this.adapters[environment];
  }

  /**
   * Public market data (tickers, candles, symbol rules, funding, market streams) of one environment: prices differ
   * between testnet and mainnet, so a page, a bot or a check reads the environment it acts in. Throws
   * `EnvironmentUnavailableError` for an environment this server does not reach
   */
  marketFor(environment: TradingEnvironment): ExchangeAdapter {
    const adapter = this.adapters[environment];
    if (!adapter) throw new EnvironmentUnavailableError(environment, this.unavailable(environment));
    return adapter;
  }

  private get market(): ExchangeAdapter {
    const adapter = this.adapters.testnet;
    if (!adapter) throw new Error('the testnet environment needs an exchange adapter');
    return adapter;
  }

  private for(keys: ExchangeKeys): ExchangeAdapter {
    const environment = environmentOfKeys(keys);
    const adapter = this.adapters[environment];
    if (!adapter) throw new EnvironmentUnavailableError(environment, this.unavailable(environment));
    return adapter;
  }

  get capabilities() {
    return this.market.capabilities;
  }
  get clockOffsetMs() {
    return this.market.clockOffsetMs;
  }
  syncTime() {
    return this.market.syncTime();
  }
  ping() {
    return this.market.ping();
  }
  ticker(...a: Parameters<ExchangeAdapter['ticker']>) {
    return this.market.ticker(...a);
  }
  depth(...a: Parameters<ExchangeAdapter['depth']>) {
    return this.market.depth(...a);
  }
  aggTrades(...a: Parameters<ExchangeAdapter['aggTrades']>) {
    return this.market.aggTrades(...a);
  }
  lastPrice(...a: Parameters<ExchangeAdapter['lastPrice']>) {
    return this.market.lastPrice(...a);
  }
  klines(...a: Parameters<ExchangeAdapter['klines']>) {
    return this.market.klines(...a);
  }
  fundingRateHistory(...a: Parameters<ExchangeAdapter['fundingRateHistory']>) {
    return this.market.fundingRateHistory(...a);
  }
  symbolInfo(...a: Parameters<ExchangeAdapter['symbolInfo']>) {
    return this.market.symbolInfo(...a);
  }
  account(...a: Parameters<ExchangeAdapter['account']>) {
    return this.for(a[0]).account(...a);
  }
  hedgeMode(...a: Parameters<ExchangeAdapter['hedgeMode']>) {
    return this.for(a[0]).hedgeMode(...a);
  }
  keyPermissions(...a: Parameters<ExchangeAdapter['keyPermissions']>) {
    return this.for(a[0]).keyPermissions(...a);
  }
  positions(...a: Parameters<ExchangeAdapter['positions']>) {
    return this.for(a[0]).positions(...a);
  }
  openOrders(...a: Parameters<ExchangeAdapter['openOrders']>) {
    return this.for(a[0]).openOrders(...a);
  }
  placeOrder(...a: Parameters<ExchangeAdapter['placeOrder']>) {
    return this.for(a[0]).placeOrder(...a);
  }
  findOrder(...a: Parameters<ExchangeAdapter['findOrder']>) {
    return this.for(a[0]).findOrder(...a);
  }
  cancelOrder(...a: Parameters<ExchangeAdapter['cancelOrder']>) {
    return this.for(a[0]).cancelOrder(...a);
  }
  orderHistory(...a: Parameters<ExchangeAdapter['orderHistory']>) {
    return this.for(a[0]).orderHistory(...a);
  }
  trades(...a: Parameters<ExchangeAdapter['trades']>) {
    return this.for(a[0]).trades(...a);
  }
  tradesFrom(...a: Parameters<ExchangeAdapter['tradesFrom']>) {
    return this.for(a[0]).tradesFrom(...a);
  }
  tradesSince(...a: Parameters<ExchangeAdapter['tradesSince']>) {
    return this.for(a[0]).tradesSince(...a);
  }
  ordersFrom(...a: Parameters<ExchangeAdapter['ordersFrom']>) {
    return this.for(a[0]).ordersFrom(...a);
  }
  income(...a: Parameters<ExchangeAdapter['income']>) {
    return this.for(a[0]).income(...a);
  }
  leverageBrackets(...a: Parameters<ExchangeAdapter['leverageBrackets']>) {
    return this.for(a[0]).leverageBrackets(...a);
  }
  symbolConfig(...a: Parameters<ExchangeAdapter['symbolConfig']>) {
    return this.for(a[0]).symbolConfig(...a);
  }
  setMarginType(...a: Parameters<ExchangeAdapter['setMarginType']>) {
    return this.for(a[0]).setMarginType(...a);
  }
  changePositionMargin(...a: Parameters<ExchangeAdapter['changePositionMargin']>) {
    return this.for(a[0]).changePositionMargin(...a);
  }
  setLeverage(...a: Parameters<ExchangeAdapter['setLeverage']>) {
    return this.for(a[0]).setLeverage(...a);
  }
  countdownCancelAll(...a: Parameters<ExchangeAdapter['countdownCancelAll']>) {
    return this.for(a[0]).countdownCancelAll(...a);
  }
}
