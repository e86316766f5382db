import { ENVIRONMENT_NOT_CONFIGURED } from '@kestrel/contracts';
import { HttpError } from '../../lib/http-error';
import { ExchangeCircuitOpenError } from './circuit-breaker';
import {
  ExchangeApiError,
  ExchangeRateLimitError,
  ExchangeResponseError,
  ExchangeUnavailableError,
  OrderStatusUnknownError,
} from './exchange-adapter';
import { EnvironmentUnavailableError } from './exchange-router';

/** Binance codes that mean "no such order" */
const NOT_FOUND = new Set([-2011, -2013]);
/** Binance codes that mean the stored keys are refused */
const KEY_REFUSED = new Set([-2014, -2015, -1022]);

/** Binance refused the API key itself (unknown, malformed, or lacking the permission): the user must act */
export function isKeyRefusal(err: unknown): boolean {
  return err instanceof ExchangeApiError && KEY_REFUSED.has(err.code);
}

/**
 * An adapter error as the browser should see it: the exchange's own sentence (e.g. "Order's notional must be no
 * smaller than 5 USDT") with a 4xx, unreachable as 503, rate limits as 429, an answer we cannot read as 502 (with
 * the answer and field, never its value). Anything else is rethrown untouched.
 */
export function exchangeHttpError(err: unknown): unknown {
  if (err instanceof OrderStatusUnknownError) return new HttpError(503, 'ORDER_STATUS_UNKNOWN', err.message);
  // A call for an environment this server does not reach (mainnet switched off since the user chose it)
  if (err instanceof EnvironmentUnavailableError)
    return new HttpError(409, ENVIRONMENT_NOT_CONFIGURED, err.message);
  if (err instanceof ExchangeCircuitOpenError) {
    return new HttpError(
      503,
      'EXCHANGE_UNREACHABLE',
      `Binance connectivity failed: exchange not reachable (${err.message})`,
      {
        'retry-after': String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))),
      },
    );
  }
  if (err instanceof ExchangeUnavailableError) {
    return new HttpError(
      503,
      'EXCHANGE_UNREACHABLE',
      `Binance connectivity failed: exchange not reachable (${err.message})`,
    );
  }
  if (err instanceof ExchangeResponseError) {
    return new HttpError(
      502,
      'EXCHANGE_BAD_ANSWER',
      `The exchange sent an answer Kestrel could not read: ${err.message}`,
    );
  }
  if (err instanceof ExchangeRateLimitError) {
    return new HttpError(429, 'EXCHANGE_RATE_LIMITED', err.message, {
      'retry-after': String(Math.ceil(err.retryAfterMs / 1000)),
    });
  }
  if (err instanceof ExchangeApiError) {
    if (NOT_FOUND.has(err.code)) return new HttpError(404, 'ORDER_NOT_FOUND', err.message);
    if (isKeyRefusal(err)) {
      return new HttpError(
        400,
        'EXCHANGE_KEYS_REFUSED',
        `Binance refused the stored API key: ${err.message}`,
      );
    }
    return new HttpError(400, 'EXCHANGE_REJECTED', err.message);
  }
  return err;
}

/** Runs an exchange call, translating its errors for HTTP */
export async function viaExchange<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw exchangeHttpError(err);
  }
}
