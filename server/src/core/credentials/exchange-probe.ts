import type {
  AccountTestResult,
  BinanceKeySetup,
  BinanceRegion,
  TradingEnvironment,
} from '@kestrel/contracts';

/** Decrypted credentials handed to the exchange adapter, and to nothing else */
export interface ExchangeCredentials {
  apiKey: string;
  secretKey: string;
  region: BinanceRegion;
  /** Where the key belongs: it is sent to this environment's exchange only (testnet when absent) */
  environment?: TradingEnvironment;
}

/**
 * The seam where the exchange adapter plugs in: the credentials service asks it to try a set of keys against the
 * exchange's account endpoint. The app plugs in `adapterProbe` (../exchange/adapter-probe.ts); tests may pass their own.
 */
export interface ExchangeProbe {
  testAccount(exchange: 'binance', credentials: ExchangeCredentials): Promise<AccountTestResult>;
  /** What the key may do and the account's position mode (a probe without it: the exchange cannot be asked) */
  describeKey?(
    exchange: 'binance',
    credentials: ExchangeCredentials,
  ): Promise<Omit<BinanceKeySetup, 'readAt'>>;
}

/** The exchange could not be asked (down, unreachable, or no adapter configured) */
export class ExchangeUnreachableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ExchangeUnreachableError';
  }
}

/**
 * The exchange was not asked because its request budget is spent for now (ours or the exchange's): a 429 with
 * Retry-After to the caller, never "not reachable" (a 503 that would send the user hunting for an outage)
 */
export class ExchangeBusyError extends ExchangeUnreachableError {
  constructor(
    reason: string,
    readonly retryAfterMs: number,
  ) {
    super(reason);
    this.name = 'ExchangeBusyError';
  }
}

/** The exchange answered and refused the keys; `message` is the exchange's reason, shown to the user */
export class ExchangeRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExchangeRejectedError';
  }
}

/** For tools that never reach an exchange (master-key rotation): an honest failure, never a fake success */
export const unavailableExchangeProbe: ExchangeProbe = {
  async testAccount() {
    throw new ExchangeUnreachableError('no exchange adapter is configured on this server yet');
  },
};
