import { systemClock } from '../../lib/clock';
import { ExchangeUnavailableError } from './exchange-adapter';

export interface CircuitBreakerOptions {
  /** Failures in a row (timeouts, 5xx, connection refused) that open the circuit */
  failures?: number;
  /** How long an open circuit refuses calls before one probe is let through, ms */
  coolDownMs?: number;
  now?: () => number;
}

/**
 * Refused at once because the host failed too often just now: nothing was sent (`maybeExecuted` false), so an order
 * refused here was not placed. A lookup of an order whose outcome is unknown that gets this stays unknown (the order
 * manager keeps asking); it never becomes "not found"
 */
export class ExchangeCircuitOpenError extends ExchangeUnavailableError {
  constructor(
    host: string,
    failures: number,
    readonly retryAt: number,
    readonly retryAfterMs: number,
  ) {
    super(
      `${host} failed ${failures} times in a row; Kestrel tries it again at ${new Date(retryAt).toISOString()}`,
      false,
    );
    this.name = 'ExchangeCircuitOpenError';
  }
}

type State = { kind: 'closed'; failures: number } | { kind: 'open'; until: number } | { kind: 'probing' };

/**
 * One breaker per exchange host. During an outage every call used to wait its full timeout (10 s); after `failures`
 * in a row the circuit opens and calls are refused at once for `coolDownMs`; then one call goes through as a probe:
 * its success closes the circuit, its failure opens it for another cool-down (calls arriving meanwhile are refused).
 * Only the host's health counts: a 4xx or a rate limit is an answer, and resets the count.
 */
export class CircuitBreaker {
  readonly #failures: number;
  readonly #coolDownMs: number;
  readonly #now: () => number;
  readonly #hosts = new Map<string, State>();

  constructor(options: CircuitBreakerOptions = {}) {
    this.#failures = options.failures ?? 5;
    this.#coolDownMs = options.coolDownMs ?? 15_000;
    this.#now = options.now ?? (() => systemClock.now().getTime());
  }

  /** Throws `ExchangeCircuitOpenError` when `host` may not be called now; otherwise the call may go */
  admit(host: string): void {
    const state = this.#hosts.get(host);
    if (!state || state.kind === 'closed') return;
    const now = this.#now();
    if (state.kind === 'open' && now >= state.until) {
      this.#hosts.set(host, { kind: 'probing' });
      return;
    }
    const retryAt = state.kind === 'open' ? state.until : now + this.#coolDownMs;
    throw new ExchangeCircuitOpenError(
      new URL(host).host,
      this.#failures,
      retryAt,
      Math.max(0, retryAt - now),
    );
  }

  /** The host answered (any HTTP answer below 500) */
  succeeded(host: string): void {
    if (this.#hosts.has(host)) this.#hosts.delete(host);
  }

  /** The host did not answer in time, refused the connection, or answered 5xx */
  failed(host: string): void {
    const state = this.#hosts.get(host) ?? { kind: 'closed', failures: 0 };
    if (state.kind === 'open') return;
    const failures = state.kind === 'closed' ? state.failures + 1 : this.#failures;
    this.#hosts.set(
      host,
      failures >= this.#failures
        ? { kind: 'open', until: this.#now() + this.#coolDownMs }
        : { kind: 'closed', failures },
    );
  }
}
