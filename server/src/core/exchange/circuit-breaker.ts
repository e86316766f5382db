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
 * Refused at once because the host (or the host for this API key) failed too often just now: nothing was sent
 * (`maybeExecuted` false), so an order refused here was not placed. A lookup of an order whose outcome is unknown
 * that gets this stays unknown (the order manager keeps asking); it never becomes "not found"
 */
export class ExchangeCircuitOpenError extends ExchangeUnavailableError {
  constructor(
    what: string,
    failures: number,
    readonly retryAt: number,
    readonly retryAfterMs: number,
  ) {
    super(
      `${what} failed ${failures} times in a row; Kestrel tries it again at ${new Date(retryAt).toISOString()}`,
      false,
    );
    this.name = 'ExchangeCircuitOpenError';
  }
}

/** `probing`: one call went through to test an open circuit; another may go once `until` passes without its answer */
type Probing = { kind: 'probing'; until: number };
type State = { kind: 'closed'; failures: number } | { kind: 'open'; until: number } | Probing;

/** Who a call is for: its account (a hash of its API key), or none for a public call */
export interface BreakerCall {
  account: string | undefined;
  /**
   * A call that takes risk off (a cancel, a reduce-only close, the kill switch's reads): tried even while a circuit
   * is open, never refused here. Its answer counts like any other
   */
  protective: boolean;
}

/** The host's count: failures in a row and the callers they came from */
type HostState =
  | { kind: 'closed'; failures: number; callers: Set<string> }
  | { kind: 'open'; until: number }
  | Probing;

const PUBLIC = 'public';

/**
 * Breakers per exchange host, in two scopes. During an outage every call used to wait its full timeout (10 s); after
 * `failures` in a row the circuit opens and calls are refused at once for `coolDownMs`; then one call goes through
 * as a probe: its success closes the circuit, its failure opens it for another cool-down.
 *
 * - Per account (host + API key): one key's failures (Binance failing that account's calls, a fault on one key)
 *   refuse that key's calls only.
 * - Per host: opened only by failures spread across callers (two accounts, or an account and a public call): the
 *   host itself is down. Any answer from the host, for anyone, closes its count.
 *
 * Protective calls are never refused (one user's trouble must not keep anyone's kill switch or cancel from being
 * tried). Only the host's health counts: a 4xx or a rate limit is an answer, and resets the count.
 */
export class CircuitBreaker {
  readonly #failures: number;
  readonly #coolDownMs: number;
  readonly #now: () => number;
  readonly #hosts = new Map<string, HostState>();
  readonly #keys = new Map<string, State>();

  constructor(options: CircuitBreakerOptions = {}) {
    this.#failures = options.failures ?? 5;
    this.#coolDownMs = options.coolDownMs ?? 15_000;
    this.#now = options.now ?? (() => systemClock.now().getTime());
  }

  /**
   * Throws `ExchangeCircuitOpenError` when the call may not go now; otherwise it may. True when it goes while a
   * circuit it would face is open (a protective call: the caller bounds its wait)
   */
  admit(host: string, call: BreakerCall): boolean {
    const name = new URL(host).host;
    const key = call.account === undefined ? undefined : keyOf(host, call.account);
    const scopes: { state: State | HostState | undefined; what: string; probe: () => void }[] = [
      {
        state: key === undefined ? undefined : this.#keys.get(key),
        what: `${name} for this API key`,
        probe: () => key !== undefined && this.#keys.set(key, this.#probing()),
      },
      { state: this.#hosts.get(host), what: name, probe: () => this.#hosts.set(host, this.#probing()) },
    ];
    const open = scopes.filter((s) => s.state !== undefined && s.state.kind !== 'closed');
    if (open.length === 0) return false;
    if (call.protective) return true;
    // Every open scope must let this call through as its probe, or none is touched: a scope left probing by a
    // call another scope refused would wait for an answer that never comes
    const now = this.#now();
    for (const { state, what } of open) {
      if (state === undefined || state.kind === 'closed' || now >= state.until) continue;
      throw new ExchangeCircuitOpenError(what, this.#failures, state.until, Math.max(0, state.until - now));
    }
    for (const scope of open) scope.probe();
    return false;
  }

  /** The host answered (any HTTP answer below 500) */
  succeeded(host: string, call: Pick<BreakerCall, 'account'>): void {
    this.#hosts.delete(host);
    if (call.account !== undefined) this.#keys.delete(keyOf(host, call.account));
  }

  /** The host did not answer in time, refused the connection, or answered 5xx */
  failed(host: string, call: Pick<BreakerCall, 'account'>): void {
    const until = this.#now() + this.#coolDownMs;
    if (call.account !== undefined) {
      const key = keyOf(host, call.account);
      const state = this.#keys.get(key) ?? { kind: 'closed', failures: 0 };
      if (state.kind !== 'open') {
        // A failed probe opens it again at once
        const failures = state.kind === 'closed' ? state.failures + 1 : this.#failures;
        this.#keys.set(
          key,
          failures >= this.#failures ? { kind: 'open', until } : { kind: 'closed', failures },
        );
      }
    }
    const state = this.#hosts.get(host) ?? { kind: 'closed', failures: 0, callers: new Set<string>() };
    if (state.kind === 'open') return;
    if (state.kind === 'probing') {
      this.#hosts.set(host, { kind: 'open', until });
      return;
    }
    state.callers.add(call.account ?? PUBLIC);
    state.failures += 1;
    this.#hosts.set(
      host,
      state.failures >= this.#failures && state.callers.size >= 2 ? { kind: 'open', until } : state,
    );
  }

  /** A probe sent now: should its answer never come (its caller gave up), another may go after a cool-down */
  #probing(): Probing {
    return { kind: 'probing', until: this.#now() + this.#coolDownMs };
  }
}

const keyOf = (host: string, account: string) => `${host} ${account}`;
