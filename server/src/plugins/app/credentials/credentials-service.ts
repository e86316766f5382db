import type {
  AccountTestResponse,
  BinanceCredentials,
  CreateBinanceCredentials,
  CredentialsStatusResponse,
} from '@kestrel/contracts';
import { BinanceRegionSchema } from '@kestrel/contracts';
import type { Clock } from '../../../lib/clock';
import { DecryptionError, open, rewrap, seal } from '../../../lib/crypto/envelope';
import type { Keyring, MasterKey } from '../../../lib/crypto/master-key';
import type { Database, Queryable } from '../../../lib/database/database';
import { HttpError } from '../../../lib/http-error';
import type { CredentialRow, CredentialsRepository } from './credentials-repository';
import {
  ExchangeBusyError,
  type ExchangeCredentials,
  type ExchangeProbe,
  ExchangeRejectedError,
  ExchangeUnreachableError,
} from './exchange-probe';

const EXCHANGE = 'binance';

/** Authenticated data of a sealed credential: moving the bytes to another user or exchange breaks decryption */
export function credentialContext(userId: string, exchange: string): string {
  return `exchange-credentials|user=${userId}|exchange=${exchange}`;
}

/** Shows enough of the key to recognise it: 4 characters each side of a 64-character Binance key */
export function maskApiKey(apiKey: string): string {
  if (apiKey.length >= 16) return `${apiKey.slice(0, 4)}${'*'.repeat(8)}${apiKey.slice(-4)}`;
  if (apiKey.length >= 8) return `${'*'.repeat(8)}${apiKey.slice(-2)}`;
  return '*'.repeat(8);
}

const NOT_STORED = 'No Binance credentials stored. Connect Binance first.';

/** Rules of the credential vault and of connection tests; the exchange is reached only through `probe` */
export class CredentialsService {
  constructor(
    private readonly db: Database,
    private readonly repo: CredentialsRepository,
    private readonly keyring: Keyring,
    private readonly probe: ExchangeProbe,
    private readonly clock: Clock,
  ) {}

  /**
   * Checks the keys with the exchange exactly as validate does, then stores them: a key the exchange refuses (a
   * withdraw-enabled one among them) is answered 400 with the reason and nothing is stored; an exchange that cannot
   * be asked is 503 and nothing is stored either, since a key that was never checked must not be traded with
   */
  async save(userId: string, body: CreateBinanceCredentials): Promise<BinanceCredentials> {
    await this.validate(body);
    const now = this.clock.now();
    const payload = Buffer.from(JSON.stringify({ api_key: body.api_key, secret_key: body.secret_key }));
    const sealed = seal(this.keyring, payload, credentialContext(userId, EXCHANGE));
    payload.fill(0);
    const row = await this.repo.upsert(this.db, {
      user_id: userId,
      exchange: EXCHANGE,
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

  async get(userId: string): Promise<BinanceCredentials> {
    const row = await this.repo.find(this.db, userId, EXCHANGE);
    if (!row) throw new HttpError(404, 'CREDENTIALS_NOT_FOUND', NOT_STORED);
    return toView(row);
  }

  async remove(userId: string): Promise<void> {
    if (!(await this.repo.remove(this.db, userId, EXCHANGE))) {
      throw new HttpError(404, 'CREDENTIALS_NOT_FOUND', NOT_STORED);
    }
  }

  /** Opens the stored secret; a failed integrity check is reported, never papered over */
  private async loadSecret(userId: string): Promise<ExchangeCredentials | undefined> {
    const row = await this.repo.find(this.db, userId, EXCHANGE);
    if (!row) return undefined;
    let plain: Buffer;
    try {
      plain = open(
        this.keyring,
        { masterKeyId: row.master_key_id, wrappedDataKey: row.wrapped_data_key, ciphertext: row.ciphertext },
        credentialContext(userId, EXCHANGE),
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
    return {
      apiKey: parsed.api_key,
      secretKey: parsed.secret_key,
      region: BinanceRegionSchema.parse(row.region),
    };
  }

  /** The user's decrypted keys for a call to the exchange; a clear 400 when none are stored */
  async keysFor(userId: string): Promise<ExchangeCredentials> {
    const credentials = await this.loadSecret(userId);
    if (!credentials) throw new HttpError(400, 'CREDENTIALS_REQUIRED', NOT_STORED);
    return credentials;
  }

  /**
   * The keys for opening risk (a new order that is not reduce-only, a leverage change): refused with 409
   * CREDENTIALS_REFUSED when the key's last check failed. Reads, cancels, lookups of orders whose outcome is unknown
   * and closing orders keep `keysFor`, so a user can still see and wind down what runs on a refused key
   */
  async tradingKeysFor(userId: string): Promise<ExchangeCredentials> {
    const row = await this.repo.find(this.db, userId, EXCHANGE);
    if (row?.check_ok === false) {
      throw new HttpError(
        409,
        'CREDENTIALS_REFUSED',
        `Binance API key ${row.api_key_masked} failed its last check${
          row.checked_at ? ` (${row.checked_at.toISOString()})` : ''
        }: ${row.check_reason ?? 'refused by the exchange'}. Kestrel will not trade with it; replace it in Settings.`,
      );
    }
    return this.keysFor(userId);
  }

  /**
   * The scheduled re-check: every stored key is checked again as on save. A key the exchange now refuses (revoked,
   * withdrawals enabled since) is marked failed with the reason and its owner's audit says so; a key that passes is
   * marked good again; an exchange that cannot be asked changes nothing. Returns how many keys were marked failed.
   */
  async recheckAll(onRefused?: (userId: string, message: string) => Promise<void>): Promise<number> {
    let refused = 0;
    for (const userId of await this.repo.userIds(this.db, EXCHANGE)) {
      const row = await this.repo.find(this.db, userId, EXCHANGE);
      if (!row) continue;
      let credentials: ExchangeCredentials | undefined;
      try {
        credentials = await this.loadSecret(userId);
      } catch (err) {
        if (err instanceof HttpError) continue; // unreadable row: its own 409 already tells the user
        throw err;
      }
      if (!credentials) continue;
      let reason: string | null = null;
      try {
        await this.probe.testAccount(EXCHANGE, credentials);
      } catch (err) {
        if (err instanceof ExchangeUnreachableError) continue;
        if (!(err instanceof ExchangeRejectedError)) throw err;
        reason = err.message;
      }
      const changed = await this.repo.recordCheck(this.db, {
        user_id: userId,
        exchange: EXCHANGE,
        updated_at: row.updated_at,
        checked_at: this.clock.now(),
        ok: reason === null,
        reason,
      });
      if (changed && reason !== null && row.check_ok !== false) {
        refused += 1;
        await onRefused?.(
          userId,
          `Binance API key ${row.api_key_masked} failed its scheduled check: ${reason}. Trading with it is stopped until it is replaced.`,
        );
      }
    }
    return refused;
  }

  /** The users with Binance keys stored (the account recorder follows each of them) */
  async usersWithKeys(): Promise<string[]> {
    return this.repo.userIds(this.db, EXCHANGE);
  }

  /**
   * The user's keys for work the server starts on its own (the account stream, a backtest's leverage brackets), or
   * undefined when none are stored or they cannot be read (the vault's 4xx); other failures throw
   */
  async storedKeys(userId: string): Promise<Pick<ExchangeCredentials, 'apiKey' | 'secretKey'> | undefined> {
    try {
      const { apiKey, secretKey } = await this.keysFor(userId);
      return { apiKey, secretKey };
    } catch (err) {
      if (err instanceof HttpError && err.statusCode < 500) return undefined;
      throw err;
    }
  }

  async status(userId: string): Promise<CredentialsStatusResponse> {
    const credentials = await this.loadSecret(userId);
    if (!credentials) {
      return {
        success: true,
        data: { exchange: EXCHANGE, configured: false, connectivity_status: 'not_configured' },
        message: NOT_STORED,
      };
    }
    try {
      await this.probe.testAccount(EXCHANGE, credentials);
      return {
        success: true,
        data: { exchange: EXCHANGE, configured: true, connectivity_status: 'connected' },
        message: 'Binance connectivity OK',
      };
    } catch (err) {
      const unreachable = err instanceof ExchangeUnreachableError;
      if (!unreachable && !(err instanceof ExchangeRejectedError)) throw err;
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
    userId: string,
    body: CreateBinanceCredentials | null | undefined,
  ): Promise<AccountTestResponse> {
    const credentials = body
      ? { apiKey: body.api_key, secretKey: body.secret_key, region: body.region }
      : await this.loadSecret(userId);
    if (!credentials) throw new HttpError(400, 'CREDENTIALS_REQUIRED', 'API Key and Secret Key are required');
    return this.callProbe(credentials);
  }

  async validate(body: CreateBinanceCredentials): Promise<AccountTestResponse> {
    return this.callProbe({ apiKey: body.api_key, secretKey: body.secret_key, region: body.region });
  }

  private async callProbe(credentials: ExchangeCredentials): Promise<AccountTestResponse> {
    try {
      const data = await this.probe.testAccount(EXCHANGE, credentials);
      return { success: true, data, message: 'Binance connectivity OK' };
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
          credentialContext(row.user_id, row.exchange),
          to,
        );
        await this.repo.updateWrapping(tx, {
          user_id: row.user_id,
          exchange: row.exchange,
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
