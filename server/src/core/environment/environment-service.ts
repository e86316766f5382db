import {
  DEFAULT_TRADING_ENVIRONMENT,
  ENVIRONMENT_HISTORY_KEPT,
  ENVIRONMENT_NOT_CONFIGURED,
  type EnvironmentStateResponse,
  type EnvironmentTarget,
  type ExchangeId,
  TRADING_ENVIRONMENTS,
  type TradingEnvironment,
} from '@kestrel/contracts';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { ExchangeTargets } from '../exchange/exchange-config';
import type { EnvironmentRepository } from './environment-repository';
import type { TradingAccount } from './trading-account';

/**
 * Each user's trading environment (issue 23), kept by the server: the one truth about where their orders go. It is
 * read at the edge only, once per request (`routes/route-schemas.ts` `tradingAccountOf`), into the `TradingAccount`
 * the services are handed, so every call made for that request goes to this environment's exchange with this
 * environment's key. Switching to mainnet needs the password within 5 minutes (the route's step-up) and a mainnet
 * this server is configured for.
 */
export class EnvironmentService {
  constructor(
    private readonly db: Database,
    private readonly repo: EnvironmentRepository,
    private readonly targets: ExchangeTargets,
    private readonly clock: Clock,
  ) {}

  /** The user's current environment (testnet until they switch) */
  async current(userId: string): Promise<TradingEnvironment> {
    return (await this.repo.find(this.db, userId))?.environment ?? DEFAULT_TRADING_ENVIRONMENT;
  }

  /**
   * The account a piece of work acts on: `environment` when the caller names one (a route's `?environment=`), else
   * the user's current one, read now and not again. Whether this server reaches it is asked where keys are opened
   * (the vault's 409), as it always was
   */
  async accountOf(userId: string, environment?: TradingEnvironment): Promise<TradingAccount> {
    return { userId, environment: environment ?? (await this.current(userId)) };
  }

  async state(userId: string): Promise<EnvironmentStateResponse> {
    const row = await this.repo.find(this.db, userId);
    const environment = row?.environment ?? DEFAULT_TRADING_ENVIRONMENT;
    return {
      currentEnvironment: environment,
      isTestnetMode: environment === 'testnet',
      environmentHistory: row?.history ?? [],
      current: this.target(environment),
      targets: TRADING_ENVIRONMENTS.map((e) => this.target(e)),
    };
  }

  /** How this server reaches an environment, as the browser shows it */
  target(environment: TradingEnvironment): EnvironmentTarget {
    const t = this.targets[environment];
    return t.configured
      ? {
          environment,
          configured: true,
          kind: t.kind,
          label: t.label,
          realMoney: t.kind === 'binance-mainnet',
          reason: null,
        }
      : {
          environment,
          configured: false,
          kind: null,
          label: environment === 'mainnet' ? 'LIVE mainnet' : 'Testnet',
          realMoney: environment === 'mainnet',
          reason: t.reason,
        };
  }

  /** The reason an environment cannot be used on this server, as a 409 (none when it can) */
  assertConfigured(environment: TradingEnvironment): void {
    const t = this.targets[environment];
    if (!t.configured) throw new HttpError(409, ENVIRONMENT_NOT_CONFIGURED, t.reason);
  }

  /**
   * Switches and records the switch (the last 10 are kept); switching to the current environment changes nothing.
   * Returns the new state and whether anything changed. Step-up for mainnet is the route's preHandler
   */
  async switchTo(
    userId: string,
    environment: TradingEnvironment,
    exchangeId: ExchangeId | null,
  ): Promise<{ state: EnvironmentStateResponse; changed: boolean }> {
    this.assertConfigured(environment);
    const row = await this.repo.find(this.db, userId);
    const current = row?.environment ?? DEFAULT_TRADING_ENVIRONMENT;
    if (current === environment) return { state: await this.state(userId), changed: false };
    const now = this.clock.now();
    const history = [...(row?.history ?? []), { environment, timestamp: now.getTime(), exchangeId }].slice(
      -ENVIRONMENT_HISTORY_KEPT,
    );
    await this.repo.save(this.db, userId, { environment, history }, now);
    return { state: await this.state(userId), changed: true };
  }
}
