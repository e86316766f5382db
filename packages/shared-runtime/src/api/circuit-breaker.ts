import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';
import { SPEC } from '../spec';

export type CircuitState = 'CLOSED' | 'OPEN' | 'HALF_OPEN';

/** Protects the backend from a storm of calls while it is down (spec §4 "Live connection and call protection") */
export interface CircuitBreaker {
  readonly state$: Observable<CircuitState>;
  readonly state: CircuitState;
  /** False while OPEN: the caller must fail fast without calling */
  canRequest(): boolean;
  recordSuccess(): void;
  recordFailure(): void;
  /** Stops the recovery timer (tests, runtime teardown) */
  dispose(): void;
}

export interface CircuitBreakerOptions {
  failureThreshold?: number;
  recoveryMs?: number;
}

/**
 * CLOSED → OPEN after `failureThreshold` consecutive failures → HALF_OPEN after `recoveryMs` → CLOSED on the
 * next success. A failure while HALF_OPEN opens it again at once: the trial call showed the backend is still down.
 */
export function createCircuitBreaker(options: CircuitBreakerOptions = {}): CircuitBreaker {
  const threshold = options.failureThreshold ?? SPEC.circuitBreakerFailureThreshold;
  const recoveryMs = options.recoveryMs ?? SPEC.circuitBreakerRecoveryMs;
  const state = new BehaviorSubject<CircuitState>('CLOSED');
  let failures = 0;
  let recoveryTimer: ReturnType<typeof setTimeout> | undefined;

  const clearTimer = () => {
    if (recoveryTimer !== undefined) clearTimeout(recoveryTimer);
    recoveryTimer = undefined;
  };
  const open = () => {
    clearTimer();
    state.next('OPEN');
    recoveryTimer = setTimeout(() => {
      recoveryTimer = undefined;
      state.next('HALF_OPEN');
    }, recoveryMs);
  };

  return {
    state$: state.pipe(distinctUntilChanged()),
    get state() {
      return state.getValue();
    },
    canRequest: () => state.getValue() !== 'OPEN',
    recordSuccess() {
      failures = 0;
      clearTimer();
      state.next('CLOSED');
    },
    recordFailure() {
      failures += 1;
      if (state.getValue() === 'HALF_OPEN' || (state.getValue() === 'CLOSED' && failures >= threshold))
        open();
    },
    dispose: clearTimer,
  };
}
