import { TRADING_ENVIRONMENTS, type TradingEnvironment } from '@kestrel/contracts';
import type { BarColumns, FundingRates, RunSettings } from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter, ExchangeKeys } from '../../core/exchange/exchange-adapter';
import { exchangeHttpError } from '../../core/exchange/exchange-http-error';
import { type FetchProgress, KlineCache } from '../../core/market-data/kline-cache';
import { type KlineSeriesKey, klineRepository } from '../../core/market-data/kline-repository';
import { LeverageBrackets, type RunBrackets } from '../../core/market-data/leverage-brackets';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { RunningJob } from '../jobs/job-kind';
import type { JobRow } from '../jobs/job-queue-sql';
import type { BacktestRow } from './backtest-repository';
import { fundingHistory } from './funding-history';

/** What the service keeps per run beside the request: what the worker needs and which bars it read */
export interface StoredSettings {
  run: RunSettings;
  intervalMs: number;
  /** Open times of the bars: [start, end), bar open times of the interval (1M: 1sts of the month) */
  span: { start: number; end: number };
}

/** What a run reads from the market, or the message it fails with, or null when its signal aborted */
export type RunInputs =
  | { ok: true; bars: BarColumns; fundingRates: FundingRates | undefined; brackets: RunBrackets }
  | { ok: false; message: string }
  | null;

export interface BacktestInputsDeps {
  db: Database;
  /** Keyed calls (the leverage brackets), routed by the key's environment */
  exchange: Pick<ExchangeAdapter, 'leverageBrackets'>;
  /**
   * Public market data of one environment (`ExchangeRouter.marketFor`): a run reads the market of the environment
   * its owner was on when it was created (testnet's and mainnet's candles differ)
   */
  market(
    environment: TradingEnvironment,
  ): Pick<ExchangeAdapter, 'klines' | 'symbolInfo' | 'fundingRateHistory'>;
  /** The account's stored exchange keys, or undefined when it has none */
  keysFor(account: TradingAccount): Promise<ExchangeKeys | undefined>;
  /** The name an environment's exchange is known by (simulator, testnet or mainnet): runs and cached candles keep it */
  exchangeEnvOf(environment: TradingEnvironment): string;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The market inputs of a run, shared by backtests, optimisations and the drift report: the kline cache of each
 * environment's exchange, the settled funding rates and the symbol's leverage brackets
 */
export class BacktestInputs {
  readonly #klines = new Map<TradingEnvironment, KlineCache>();
  readonly brackets: LeverageBrackets;

  constructor(private readonly deps: BacktestInputsDeps) {
    this.brackets = new LeverageBrackets({
      exchange: deps.exchange,
      keysFor: deps.keysFor,
      clock: deps.clock,
      log: deps.log,
    });
  }

  /** The candles of an environment's exchange, cached under its name */
  klinesOf(environment: TradingEnvironment): KlineCache {
    let cache = this.#klines.get(environment);
    if (!cache) {
      cache = new KlineCache(this.deps.db, klineRepository, this.deps.market(environment));
      this.#klines.set(environment, cache);
    }
    return cache;
  }

  /**
   * The environment whose exchange a stored run names (`exchange_env`); testnet for a name no environment has now
   * (a run of an exchange this server was started with before), whose candles are read from the cache as stored
   */
  environmentOfRun(row: Pick<BacktestRow, 'exchange_env'>): TradingEnvironment {
    return TRADING_ENVIRONMENTS.find((e) => this.deps.exchangeEnvOf(e) === row.exchange_env) ?? 'testnet';
  }

  /**
   * What a run reads from the market before the engine starts: the bars (kline cache, the missing spans from the
   * exchange), the settled funding rates (unless funding is off) and the symbol's leverage brackets. Null when
   * `signal` aborted; `ok: false` with the message the job fails with (exchange refused, no bars in the range)
   */
  async loadRunInputs(
    row: Pick<BacktestRow, 'user_id' | 'exchange_env' | 'symbol' | 'interval'>,
    settings: Pick<StoredSettings, 'run' | 'span'>,
    signal: AbortSignal,
    onProgress: (p: FetchProgress) => void,
  ): Promise<RunInputs> {
    const environment = this.environmentOfRun(row);
    const bars = await fromExchange(`${row.symbol} ${row.interval} klines`, signal, () =>
      this.klinesOf(environment).load(this.seriesKey(row), settings.span, { signal, onProgress }),
    );
    if (!bars?.ok) return bars;
    // Funding at the rates the exchange actually settled (the engine's constant 0.01 % only where it has none)
    let fundingRates: FundingRates | undefined;
    if (settings.run.broker?.fundingRate !== 0) {
      const funding = await fromExchange(`${row.symbol} funding rates`, signal, () =>
        fundingHistory(this.deps.market(environment), row.symbol, settings.span, signal),
      );
      if (!funding?.ok) return funding;
      fundingRates = funding.value;
    }
    // The symbol's own brackets when the owner has keys there (else the default table): liquidation depends on them
    const brackets = await this.brackets.forRun({ userId: row.user_id, environment }, row.symbol);
    if (signal.aborted) return null;
    if (bars.value.openTime.length === 0) {
      return {
        ok: false,
        message:
          `The exchange has no ${row.symbol} ${row.interval} bars between ${new Date(settings.span.start).toISOString()} ` +
          `and ${new Date(settings.span.end).toISOString()}`,
      };
    }
    return { ok: true, bars: bars.value, fundingRates, brackets };
  }

  seriesKey(row: Pick<BacktestRow, 'exchange_env' | 'symbol' | 'interval'>) {
    return {
      env: row.exchange_env,
      symbol: row.symbol,
      interval: row.interval,
    } satisfies KlineSeriesKey;
  }
}

/**
 * One market read of a run: its value; the message the run fails with when the exchange refused (`what` names the
 * data: "BTCUSDT 1h klines"); null when `signal` aborted. Anything else is a bug and throws
 */
async function fromExchange<T>(
  what: string,
  signal: AbortSignal,
  read: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; message: string } | null> {
  try {
    return { ok: true, value: await read() };
  } catch (err) {
    if (signal.aborted) return null;
    const reason = exchangeHttpError(err);
    if (reason instanceof HttpError) {
      return { ok: false, message: `Could not fetch ${what} from the exchange: ${reason.message}` };
    }
    throw err;
  }
}

/** The run's settings with what was read for it: the settled funding rates and the symbol's own brackets */
export function runSettingsWith(
  run: RunSettings,
  inputs: Pick<LoadedRunInputs, 'fundingRates' | 'brackets'>,
): RunSettings {
  return {
    ...run,
    ...(inputs.fundingRates ? { fundingRates: inputs.fundingRates } : {}),
    ...(inputs.brackets.brackets ? { brackets: inputs.brackets.brackets } : {}),
  };
}

/** What a run read from the market (`RunInputs` that are there) */
export type LoadedRunInputs = Extract<RunInputs, { ok: true }>;

/**
 * A job's market inputs, the kline download taking the first `share` of its progress bar; undefined when the job
 * ends here: its signal aborted, or it failed with the message of what the exchange would not give
 */
export async function jobRunInputs<Row extends JobRow>(
  inputs: Pick<BacktestInputs, 'loadRunInputs'>,
  row: Pick<BacktestRow, 'user_id' | 'exchange_env' | 'symbol' | 'interval'>,
  settings: Pick<StoredSettings, 'run' | 'span'>,
  job: Pick<RunningJob<Row>, 'signal' | 'progress' | 'fail'>,
  share: number,
): Promise<LoadedRunInputs | undefined> {
  const read = await inputs.loadRunInputs(row, settings, job.signal, (p) =>
    job.progress(p.missing > 0 ? (share * p.fetched) / p.missing : share),
  );
  if (read === null) return undefined;
  if (!read.ok) {
    await job.fail(read.message);
    return undefined;
  }
  return read;
}
