import type { TradingEnvironment } from '@kestrel/contracts';
import type { ServerConfig } from '../config';
import type { Clock } from '../lib/clock';
import type { Keyring } from '../lib/crypto/master-key';
import type { Database } from '../lib/database/database';
import type { ExchangeProbe } from './credentials/exchange-probe';
import type { ExchangeAdapter } from './exchange/exchange-adapter';

/**
 * Parts of the core floor a caller may supply instead of the ones built from configuration (tests, benchmarks).
 * Each floor declares its own; the composition root (`app.ts`) asks for all of them
 */
export interface CoreDeps {
  /** An open, owned-by-the-caller database; migrations still run on it */
  database?: Database;
  /** The vault's keys (stored exchange secrets) */
  keyring?: Keyring;
  /** The token-signing keys */
  tokenKeyring?: Keyring;
  clock?: Clock;
  /**
   * The exchange clients' own clock (request signing with the measured offset, the weight minute, cache ages, the
   * breaker's cool-down, stream reconnects and heartbeats): the system clock by default, not `clock`, since these
   * are durations of real network I/O that a test's hand-moved app clock would hold still
   */
  exchangeClock?: Clock;
  exchange?: ExchangeProbe;
  /** The testnet environment's exchange adapter; built from `config.exchangeTargets` when absent */
  exchangeAdapter?: ExchangeAdapter;
  /** Adapters per environment (two simulators standing in for testnet and mainnet); win over `exchangeAdapter` */
  exchangeAdapters?: Partial<Record<TradingEnvironment, ExchangeAdapter>>;
  /** Where log lines go (one JSON object per line); stdout by default */
  logStream?: { write(line: string): void };
  /** How long an upstream exchange stream outlives its last socket (`STREAM_LINGER_MS` by default; tests shorten it) */
  liveStreamLingerMs?: number;
}

/** What a plugin receives when it is registered: the configuration and the parts of its floor and those below */
export interface PluginOptions<Deps = CoreDeps> {
  config: ServerConfig;
  deps: Deps;
}
