import type { ApiResult } from '@kestrel/shared-runtime';

/**
 * Who said no to a refused order. A trader acts differently on each: Binance's reason is about the order itself
 * (tick size, margin), Kestrel's account limit is one the trader set on /risk and can raise, and the rest is Kestrel
 * refusing the request before it reached anyone (bad input, signed out)
 */
export type RefusedBy = 'binance' | 'kestrel-limit' | 'kestrel';

/** The server's codes for an answer that came from the exchange (`exchange-http-error.ts`) */
const EXCHANGE_CODES = new Set(['EXCHANGE_REJECTED', 'EXCHANGE_KEYS_REFUSED', 'EXCHANGE_RATE_LIMITED']);

/** The server's code for a refusal by one of the user's account limits (`risk-guard.ts`) */
const RISK_LIMIT = 'RISK_LIMIT';

/**
 * Why an order (or a close, a cancel, a leverage change) did not go through, as the trader must read it:
 * - `refused`: the exchange or Kestrel said no (`by` says who); nothing was placed, the reason is the refuser's sentence
 * - `unknown`: it may or may not have been placed (the answer was lost); it must not be sent again blindly
 * - `not-sent`: it never left (the circuit breaker was open, the exchange was unreachable before sending)
 */
export type OrderFailure =
  | { kind: 'refused'; by: RefusedBy; reason: string }
  | { kind: 'unknown'; reason: string }
  | { kind: 'not-sent'; reason: string };

/** The failure as a thrown error, for TanStack Query's mutation state */
export class OrderFailureError extends Error {
  override readonly name = 'OrderFailureError';
  constructor(readonly failure: OrderFailure) {
    super(failure.reason);
  }
}

/**
 * Sorts a failed call that changes the account. Only an answer that says "not placed" counts as such: a 4xx, a
 * 429, the server's EXCHANGE_UNREACHABLE or ORDER_NOT_PLACED (it checked that the exchange has no such order) or a call that never
 * left. A lost answer, a 5xx without that proof, or ORDER_STATUS_UNKNOWN are "status unknown".
 */
export function classifyFailure(result: Extract<ApiResult<unknown>, { success: false }>): OrderFailure {
  const reason = result.error;
  if (result.code === 'ORDER_STATUS_UNKNOWN') return { kind: 'unknown', reason };
  // The request may have reached the server (a timeout, a dropped connection): its fate is unknown
  if (result.unreachable) return { kind: 'unknown', reason };
  if (result.status === undefined) return { kind: 'not-sent', reason };
  if (result.status >= 400 && result.status < 500)
    return { kind: 'refused', by: refuser(result.code), reason };
  if (result.code === 'EXCHANGE_UNREACHABLE') return { kind: 'not-sent', reason };
  // The order manager found, after the exchange's answer window, that the exchange has no such order
  if (result.code === 'ORDER_NOT_PLACED') return { kind: 'not-sent', reason };
  return { kind: 'unknown', reason };
}

function refuser(code: string | undefined): RefusedBy {
  if (code === RISK_LIMIT) return 'kestrel-limit';
  if (code !== undefined && EXCHANGE_CODES.has(code)) return 'binance';
  return 'kestrel';
}

/** The failure behind an error thrown by a mutation (anything else reads as unknown: it may have been sent) */
export function failureOf(error: unknown): OrderFailure {
  if (error instanceof OrderFailureError) return error.failure;
  return { kind: 'unknown', reason: error instanceof Error ? error.message : String(error) };
}

// The server's sentence after it names the limit and its figures
const REFUSED_BY_WORDS: Record<RefusedBy, string> = {
  binance: 'Binance refused it',
  'kestrel-limit': 'Your Kestrel account limit refused it, nothing was sent to Binance',
  kestrel: 'Kestrel refused it, nothing was sent to Binance',
};

/** What the trader reads */
export function failureText(failure: OrderFailure): string {
  switch (failure.kind) {
    case 'refused':
      return `${REFUSED_BY_WORDS[failure.by]}: ${failure.reason}`;
    case 'not-sent':
      return `Not sent: ${failure.reason}`;
    case 'unknown':
      return `Status unknown: ${failure.reason}. Check open orders and positions before trying again; Kestrel does not resend it.`;
  }
}
