import type {
  AccountTestResponse,
  BinanceCredentials,
  BinanceKeySetup,
  CreateBinanceCredentials,
  CredentialsStatusResponse,
  TradingEnvironment,
} from '@kestrel/contracts';
import { BinanceRegionSchema, TRADING_ENVIRONMENTS } from '@kestrel/contracts';
import type { Clock } from '../../lib/clock';
import { DecryptionError, open, rewrap, seal } from '../../lib/crypto/envelope';
import type { Keyring, MasterKey } from '../../lib/crypto/master-key';
import type { Database, Queryable } from '../../lib/database/database';
import type { DomainEvents } from '../../lib/domain-events';
import { HttpError } from '../../lib/http-error';
import type { TradingAccount } from '../environment/trading-account';
import type { CredentialRow, CredentialsRepository } from './credentials-repository';
import {
  ExchangeBusyError,
  type ExchangeCredentials,
  type ExchangeProbe,
  ExchangeRejectedError,
  ExchangeUnreachableError,
} from './exchange-probe';

const EXCHANGE = 'binance';

/**
 * Authenticated data of a sealed credential: moving the bytes to another user, exchange or environment breaks
 * decryption. Testnet keeps the context keys had before environments existed (they were all testnet's)
 */
export function credentialContext(
  userId: string,
  exchange: string,
  environment: TradingEnvironment = 'testnet',
): string {
  const base = `exchange-credentials|user=${userId}|exchange=${exchange}`;
  return environment === 'testnet' ? base : `${base}|environment=${environment}`;
}

/** Shows enough of the key to recognise it: 4 characters each side of a 64-character Binance key */
export function maskApiKey(apiKey: string): string {
  if (apiKey.length >= 16) return `${apiKey.slice(0, 4)}${'*'.repeat(8)}${apiKey.slice(-4)}`;
  if (apiKey.length >= 8) return `${'*'.repeat(8)}${apiKey.slice(-2)}`;
  return '*'.repeat(8);
}

const NOT_STORED = 'No Binance credentials stored. Connect Binance first.';
const notStored = (environment: TradingEnvironment) =>
  environment === 'testnet'
    ? NOT_STORED
    : `No Binance credentials stored for ${environment}. Connect Binance on ${environment} first.`;

/** What the vault needs to know of the environments (`EnvironmentService`): whether this server reaches one */
export interface EnvironmentSource {
  assertConfigured(environment: TradingEnvironment): void;
}

/** Keys as the vault hands them to the exchange: always tagged with the environment they belong to */
export type EnvironmentKeys = ExchangeCredentials & { environment: TradingEnvironment };

declare module '../../lib/domain-events' {
  interface DomainEventMap {
    /**
     * The vault opened the user's stored keys for a call (every keyed exchange call starts here), published
     * before the keys are handed out: the key-refusal notices learn whose key `apiKey` is, so a key Binance
     * refuses is traced to its owner. News: a subscriber's failure never fails the call
     */
    'credentials.opened': { userId: string; apiKey: string };
  }
}

/** Rules of the credential vault and of connection tests; the exchange is reached only through `probe` */
export class CredentialsService {
  constructor(
    private readonly db: Database,
    private readonly repo: CredentialsRepository,
    private readonly keyring: Keyring,
    private readonly probe: ExchangeProbe,
    private readonly clock: Clock,
    private readonly environments: EnvironmentSource,
    /** Publishes 'credentials.opened' */
    private readonly events?: Pick<DomainEvents, 'publish'>,
    /** A stored key newly found refused (by any check): its owner is told (the account audit) */
    private readonly onKeyRefused?: (userId: string, message: string) => Promise<void>,
  ) {}

  /**
   * The environment of the account a call acts on (the caller resolved the account once: `TradingAccount`). One
   * this server cannot reach is a 409 with the reason
   */
  private reachable(account: TradingAccount): TradingEnvironment {
    this.environments.assertConfigured(account.environment);
    return account.environment;
  }

  async save(account: TradingAccount, body: CreateBinanceCredentials): Promise<BinanceCredentials> {
    const { userId } = account;
    const env = this.reachable(account);
    // Checked with the exchange exactly as validate does, then stored: a key the exchange refuses (a
    // withdraw-enabled one among them) is answered 400 with the reason and nothing is stored; an exchange that
    // cannot be asked is 503 and nothing is stored either, since a key never checked must not be traded with
    await this.validate(account, body);
    const now = this.clock.now();
    const payload = Buffer.from(JSON.stringify({ api_key: body.api_key, secret_key: body.secret_key }));
    const sealed = seal(this.keyring, payload, credentialContext(userId, EXCHANGE, env));
    payload.fill(0);
    const row = await this.repo.upsert(this.db, {
      user_id: userId,
      exchange: EXCHANGE,
      environment: env,
      region: body.region,
      api_key_masked: maskApiKey(body.api_key),
      master_key_id: sealed.masterKeyId,
      wrapped_data_key: sealed.wrappedDataKey,
      ciphertext: sealed.ciphertext,
      created_at: now,
      updated_at: now,
      checked_at: now,
      check_ok: true,
      check_reason: null,
    });
    return toView(row);
  }

  async get(account: TradingAccount): Promise<BinanceCredentials> {
    const env = this.reachable(account);
    const row = await this.repo.find(this.db, account.userId, EXCHANGE, env);
    if (!row) throw new HttpError(404, 'CREDENTIALS_NOT_FOUND', notStored(env));
    return toView(row);
  }

  /** Deletes the account's keys, even of an environment this server no longer reaches (nothing is sent anywhere) */
  async remove(account: TradingAccount): Promise<void> {
    const { userId, environment } = account;
    if (!(await this.repo.remove(this.db, userId, EXCHANGE, environment))) {
      throw new HttpError(404, 'CREDENTIALS_NOT_FOUND', notStored(environment));
    }
  }

  /**
   * Opens the stored secret (of `stored`, the row already read, when given); a failed integrity check is reported,
   * never papered over
   */
  private async loadSecret(
    account: TradingAccount,
    stored?: CredentialRow,
  ): Promise<EnvironmentKeys | undefined> {
    const { userId, environment } = account;
    const row = stored ?? (await this.repo.find(this.db, userId, EXCHANGE, environment));
    if (!row) return undefined;
    let plain: Buffer;
    try {
      plain = open(
        this.keyring,
        { masterKeyId: row.master_key_id, wrappedDataKey: row.wrapped_data_key, ciphertext: row.ciphertext },
        credentialContext(userId, EXCHANGE, environment),
      );
    } catch (err) {
      if (!(err instanceof DecryptionError)) throw err;
      throw new HttpError(
        409,
        'CREDENTIALS_UNREADABLE',
        'Stored Binance credentials failed their integrity check and cannot be used. Delete them and connect again.',
      );
    }
    const parsed = JSON.parse(plain.toString('utf8')) as { api_key: string; secret_key: string };
    plain.fill(0);
    await this.events?.publish('credentials.opened', { userId, apiKey: parsed.api_key });
    return {
      apiKey: parsed.api_key,
      secretKey: parsed.secret_key,
      region: BinanceRegionSchema.parse(row.region),
      environment,
    };
  }

  /**
   * The account's decrypted keys for a call to the exchange, tagged with its environment (the exchange router sends
   * them there and nowhere else). A clear 400 when none are stored, a 409 when the environment is not configured on
   * this server
   */
  async keysFor(account: TradingAccount): Promise<EnvironmentKeys> {
    const env = this.reachable(account);
    const credentials = await this.loadSecret(account);
    if (!credentials) throw new HttpError(400, 'CREDENTIALS_REQUIRED', notStored(env));
    return credentials;
  }

  /**
   * The keys for opening risk (a new order that is not reduce-only, a leverage change): refused with 409
   * CREDENTIALS_REFUSED when the key's last check failed. Reads, cancels, lookups of orders whose outcome is unknown
   * and closing orders keep `keysFor`, so a user can still see and wind down what runs on a refused key
   */
  async tradingKeysFor(account: TradingAccount): Promise<EnvironmentKeys> {
    const env = this.reachable(account);
    const row = await this.repo.find(this.db, account.userId, EXCHANGE, env);
    if (row?.check_ok === false) {
      throw new HttpError(
        409,
        'CREDENTIALS_REFUSED',
        `Binance API key ${row.api_key_masked} failed its last check${
          row.checked_at ? ` (${row.checked_at.toISOString()})` : ''
        }: ${row.check_reason ?? 'refused by the exchange'}. Kestrel will not trade with it; replace it in Settings.`,
      );
    }
    // The row just read is the one opened: one read per order, not two
    const credentials = row ? await this.loadSecret(account, row) : undefined;
    if (!credentials) throw new HttpError(400, 'CREDENTIALS_REQUIRED', notStored(env));
    return credentials;
  }

  /**
   * The scheduled re-check: every stored key is checked again as on save. A key the exchange now refuses (revoked,
   * withdrawals enabled since) is marked failed with the reason and its owner's audit says so; a key that passes is
   * marked good again; an exchange that cannot be asked changes nothing. Returns how many keys were marked failed.
   */
  async recheckAll(
    onRefused: ((userId: string, message: string) => Promise<void>) | undefined = this.onKeyRefused,
  ): Promise<number> {
    let refused = 0;
    for (const userId of await this.repo.userIds(this.db, EXCHANGE)) {
      for (const environment of TRADING_ENVIRONMENTS) {
        try {
          this.environments.assertConfigured(environment);
        } catch {
          continue; // an environment this server does not reach has nothing to check against
        }
        if (await this.recheckOne({ userId, environment }, onRefused)) refused += 1;
      }
    }
    return refused;
  }

  /** One stored key's scheduled check; true when it was newly marked failed */
  private async recheckOne(
    account: TradingAccount,
    onRefused?: (userId: string, message: string) => Promise<void>,
  ): Promise<boolean> {
    const { userId, environment } = account;
    const row = await this.repo.find(this.db, userId, EXCHANGE, environment);
    if (!row) return false;
    let credentials: ExchangeCredentials | undefined;
    try {
      credentials = await this.loadSecret(account);
    } catch (err) {
      if (err instanceof HttpError) return false; // unreadable row: its own 409 already tells the user
      throw err;
    }
    if (!credentials) return false;
    let reason: string | null = null;
    try {
      await this.probe.testAccount(EXCHANGE, credentials);
    } catch (err) {
      if (err instanceof ExchangeUnreachableError) return false;
      if (!(err instanceof ExchangeRejectedError)) throw err;
      reason = err.message;
    }
    return this.noteCheck(account, row, reason, 'its scheduled check', onRefused);
  }

  /**
   * What a check of the stored key found (the schedule's, or a status call's: whichever sees it first), kept on its
   * row: a key refused now (revoked, withdrawals enabled since) stops opening positions at once, one that passes
   * trades again. True when it was newly marked failed (its owner is told, once)
   */
  private async noteCheck(
    account: TradingAccount,
    row: { updated_at: Date; api_key_masked: string; check_ok: boolean | null },
    reason: string | null,
    check: string,
    onRefused = this.onKeyRefused,
  ): Promise<boolean> {
    const { userId, environment } = account;
    const changed = await this.repo.recordCheck(this.db, {
      user_id: userId,
      exchange: EXCHANGE,
      environment,
      updated_at: row.updated_at,
      checked_at: this.clock.now(),
      ok: reason === null,
      reason,
    });
    if (!changed || reason === null || row.check_ok === false) return false;
    await onRefused?.(
      userId,
      `Binance ${environment} API key ${row.api_key_masked} failed ${check}: ${reason}. Trading with it is stopped until it is replaced.`,
    );
    return true;
  }

  /**
   * Every account with Binance keys stored, as (user, environment): the account recorder follows each of them.
   * Keys of an environment this server does not reach (mainnet not configured) are left out: nothing to record
   */
  async accountsWithKeys(): Promise<TradingAccount[]> {
    const accounts = await this.repo.accounts(this.db, EXCHANGE);
    return accounts.filter(({ environment }) => {
      try {
        this.environments.assertConfigured(environment);
        return true;
      } catch {
        return false;
      }
    });
  }

  /**
   * The user's keys for work the server starts on its own (the account stream, a backtest's leverage brackets), or
   * undefined when none are stored or they cannot be read (the vault's 4xx); other failures throw
   */
  async storedKeys(
    account: TradingAccount,
  ): Promise<Pick<EnvironmentKeys, 'apiKey' | 'secretKey' | 'environment'> | undefined> {
    try {
      const { apiKey, secretKey, environment } = await this.keysFor(account);
      return { apiKey, secretKey, environment };
    } catch (err) {
      if (err instanceof HttpError && err.statusCode < 500) return undefined;
      throw err;
    }
  }

  /**
   * The stored key asked of the exchange now. What it finds is kept as the scheduled check's would be: a key that
   * gained withdraw rights or was revoked stops opening positions from this answer on, not at the next check
   */
  async status(account: TradingAccount): Promise<CredentialsStatusResponse> {
    const env = this.reachable(account);
    const row = await this.repo.find(this.db, account.userId, EXCHANGE, account.environment);
    const credentials = row ? await this.loadSecret(account, row) : undefined;
    if (!row || !credentials) {
      return {
        success: true,
        data: { exchange: EXCHANGE, configured: false, connectivity_status: 'not_configured' },
        message: notStored(env),
      };
    }
    try {
      await this.probe.testAccount(EXCHANGE, credentials);
      await this.noteCheck(account, row, null, 'a check');
      return {
        success: true,
        data: { exchange: EXCHANGE, configured: true, connectivity_status: 'connected' },
        message: 'Binance connectivity OK',
      };
    } catch (err) {
      const unreachable = err instanceof ExchangeUnreachableError;
      if (!unreachable && !(err instanceof ExchangeRejectedError)) throw err;
      if (!unreachable) await this.noteCheck(account, row, err.message, 'a check');
      return {
        success: true,
        data: {
          exchange: EXCHANGE,
          configured: true,
          connectivity_status: unreachable ? 'unreachable' : 'error',
        },
        message: unreachable
          ? `Binance connectivity failed: exchange not reachable (${err.message})`
          : `Binance connectivity failed: ${err.message}`,
      };
    }
  }

  /** Tests the given keys, or the stored ones when none are given */
  async testConnection(
    account: TradingAccount,
    body: CreateBinanceCredentials | null | undefined,
  ): Promise<AccountTestResponse> {
    const env = this.reachable(account);
    const credentials = body
      ? { apiKey: body.api_key, secretKey: body.secret_key, region: body.region, environment: env }
      : await this.loadSecret(account);
    if (!credentials) throw new HttpError(400, 'CREDENTIALS_REQUIRED', 'API Key and Secret Key are required');
    return this.callProbe(credentials);
  }

  /** Tests keys against the exchange of the account's environment */
  async validate(account: TradingAccount, body: CreateBinanceCredentials): Promise<AccountTestResponse> {
    const env = this.reachable(account);
    return this.callProbe({
      apiKey: body.api_key,
      secretKey: body.secret_key,
      region: body.region,
      environment: env,
    });
  }

  private async callProbe(credentials: ExchangeCredentials): Promise<AccountTestResponse> {
    const data = await this.asking(() => this.probe.testAccount(EXCHANGE, credentials));
    return { success: true, data, message: 'Binance connectivity OK' };
  }

  /** What the stored key may do and the account's position mode, asked of the exchange now */
  async keySetup(account: TradingAccount): Promise<BinanceKeySetup> {
    const env = this.reachable(account);
    const credentials = await this.loadSecret(account);
    if (!credentials) throw new HttpError(404, 'CREDENTIALS_NOT_FOUND', notStored(env));
    const describe = this.probe.describeKey?.bind(this.probe);
    if (!describe) {
      throw new HttpError(
        503,
        'EXCHANGE_UNREACHABLE',
        'Binance connectivity failed: the key cannot be described',
      );
    }
    const setup = await this.asking(() => describe(EXCHANGE, credentials));
    return { ...setup, readAt: this.clock.now().getTime() };
  }

  /** A question to the exchange, its failure told as the HTTP answer the routes give */
  private async asking<T>(ask: () => Promise<T>): Promise<T> {
    try {
      return await ask();
    } catch (err) {
      if (err instanceof ExchangeBusyError) {
        throw new HttpError(
          429,
          'EXCHANGE_RATE_LIMITED',
          `Binance connectivity check postponed: ${err.message}`,
          {
            'retry-after': String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))),
          },
        );
      }
      // "connectivity" in the text makes the browser show its Binance Connectivity Failed toast (spec §8)
      if (err instanceof ExchangeUnreachableError) {
        throw new HttpError(
          503,
          'EXCHANGE_UNREACHABLE',
          `Binance connectivity failed: exchange not reachable (${err.message})`,
        );
      }
      if (err instanceof ExchangeRejectedError) {
        throw new HttpError(400, 'EXCHANGE_REJECTED', `Binance connectivity failed: ${err.message}`);
      }
      throw err;
    }
  }

  /**
   * Re-wraps every data key under `to` in one transaction (master-key rotation). Payload ciphertexts are not
   * touched; a row that does not open aborts the whole rotation. `inTx`: within the caller's transaction. Returns the number of rows re-wrapped.
   */
  async rotateMasterKey(to: MasterKey, inTx?: Queryable): Promise<number> {
    const run = <T>(fn: (tx: Queryable) => Promise<T>) => (inTx ? fn(inTx) : this.db.transaction(fn));
    return run(async (tx) => {
      const rows = await this.repo.lockAll(tx);
      for (const row of rows) {
        const next = rewrap(
          this.keyring,
          {
            masterKeyId: row.master_key_id,
            wrappedDataKey: row.wrapped_data_key,
            ciphertext: row.ciphertext,
          },
          credentialContext(row.user_id, row.exchange, row.environment),
          to,
        );
        await this.repo.updateWrapping(tx, {
          user_id: row.user_id,
          exchange: row.exchange,
          environment: row.environment,
          master_key_id: next.masterKeyId,
          wrapped_data_key: next.wrappedDataKey,
        });
      }
      return rows.length;
    });
  }
}

function toView(row: CredentialRow): BinanceCredentials {
  return {
    exchange: EXCHANGE,
    api_key_masked: row.api_key_masked,
    region: BinanceRegionSchema.parse(row.region),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_check:
      row.checked_at && row.check_ok !== null
        ? { at: row.checked_at.toISOString(), ok: row.check_ok, reason: row.check_reason }
        : null,
  };
}
