import { createHash } from 'node:crypto';
import type { BacktestBracketsSource } from '@kestrel/contracts/backtest';
import { buildBrackets, type LeverageBracket } from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { TradingAccount } from '../environment/trading-account';
import type { ExchangeAdapter, ExchangeKeys } from '../exchange/exchange-adapter';

/** How long a symbol's brackets are reused: Binance changes them rarely, and announces it */
export const BRACKETS_TTL_MS = 60 * 60_000;

export interface RunBrackets {
  /** Undefined: the engine's default (BTCUSDT) table */
  brackets?: readonly LeverageBracket[];
  source: BacktestBracketsSource;
}

export interface LeverageBracketsDeps {
  exchange: Pick<ExchangeAdapter, 'leverageBrackets'>;
  /** The account's stored exchange keys; undefined when it has none */
  keysFor(account: TradingAccount): Promise<ExchangeKeys | undefined>;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * Leverage brackets for a backtest. Binance serves a symbol's brackets only on a signed endpoint, so they are read
 * with the keys of the user starting the run, then kept per API key and symbol for BRACKETS_TTL_MS. Per key, not
 * per symbol: Binance gives some accounts their own table (the answer can carry a `notionalCoef`, and brokers and
 * VIP accounts get other caps), and a key the exchange refuses must not be handed a table another user's key read.
 * A user without keys gets the engine's default table, as does any failure to read them: the run goes on, and its
 * result says which table it used.
 */
export class LeverageBrackets {
  private readonly cache = new Map<string, { at: number; brackets: readonly LeverageBracket[] }>();

  constructor(private readonly deps: LeverageBracketsDeps) {}

  /**
   * The symbol's brackets read with the account's key (a bot reads its own environment's account: a mainnet bot's
   * caps are mainnet's; a backtest, its owner's environment at its creation)
   */
  async forRun(account: TradingAccount, symbol: string): Promise<RunBrackets> {
    const fallback: RunBrackets = { source: 'default' };
    let keys: ExchangeKeys | undefined;
    try {
      keys = await this.deps.keysFor(account);
    } catch (err) {
      this.deps.log.warn(
        { err, userId: account.userId },
        'backtest: could not read the user’s exchange keys; default brackets',
      );
      return fallback;
    }
    // Only a user who connected an account gets the exchange's table: without keys the run is one we could not
    // have fetched for them, and the page tells them how to get the symbol's own
    if (!keys) return fallback;
    const now = this.deps.clock.now().getTime();
    // A digest of the API key, so the cache holds no key material
    const cacheKey = `${createHash('sha256').update(keys.apiKey).digest('base64url')} ${symbol}`;
    const hit = this.cache.get(cacheKey);
    if (hit && now - hit.at < BRACKETS_TTL_MS) return { brackets: hit.brackets, source: 'exchange' };
    try {
      const tiers = await this.deps.exchange.leverageBrackets(keys, symbol);
      if (!tiers || tiers.length === 0) {
        this.deps.log.warn({ symbol }, 'backtest: the exchange has no leverage brackets for the symbol');
        return fallback;
      }
      // Rebuilt through the engine: checked (ratios in (0, 1), caps above floors) and `cum` by Binance's rule
      const brackets = buildBrackets(tiers);
      this.cache.set(cacheKey, { at: now, brackets });
      return { brackets, source: 'exchange' };
    } catch (err) {
      // The adapter's errors carry the exchange's code and text, never the keys or the signed query
      this.deps.log.warn(
        { symbol, reason: err instanceof Error ? err.message : String(err) },
        'backtest: leverage brackets not available from the exchange; default brackets',
      );
      return fallback;
    }
  }
}
