import { describe, expect, it } from 'vitest';
import { CircuitBreaker, ExchangeCircuitOpenError } from './circuit-breaker';

const HOST = 'https://fapi.binance.com';
const call = (account: string | undefined, protective = false) => ({ account, protective });

function breaker() {
  const clock = { now: 0 };
  const b = new CircuitBreaker({ failures: 3, coolDownMs: 1_000, now: () => clock.now });
  /** `n` calls of `account`, each admitted and failed */
  const fail = (account: string | undefined, n = 1) => {
    for (let i = 0; i < n; i++) {
      b.admit(HOST, call(account));
      b.failed(HOST, call(account));
    }
  };
  return { b, clock, fail };
}

describe('CircuitBreaker', () => {
  it('opens for one key on its own failures and leaves other keys and public calls alone', () => {
    const { b, fail } = breaker();
    fail('A', 3);
    expect(() => b.admit(HOST, call('A'))).toThrow(
      /fapi\.binance\.com for this API key failed 3 times in a row/,
    );
    expect(b.admit(HOST, call('B'))).toBe(false);
    expect(b.admit(HOST, call(undefined))).toBe(false);
  });

  it('opens for the host when failures come from two callers, and any answer closes the count', () => {
    const { b, fail } = breaker();
    fail('A', 2);
    b.succeeded(HOST, call('B'));
    fail('A');
    // Three in a row from one key: that key only; the host's count restarted at B's answer
    expect(() => b.admit(HOST, call('A'))).toThrow(/for this API key/);
    fail(undefined);
    fail('C');
    // Three since the answer, from three callers: the host is down for everyone
    const refused = (() => {
      try {
        b.admit(HOST, call('C'));
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(ExchangeCircuitOpenError);
    expect((refused as Error).message).toMatch(/^fapi\.binance\.com failed 3 times in a row/);
  });

  it('tries a protective call however open, and says so (its wait is bounded by the caller)', () => {
    const { b, fail } = breaker();
    fail('A', 3);
    fail('B');
    expect(() => b.admit(HOST, call('C'))).toThrow(ExchangeCircuitOpenError);
    expect(b.admit(HOST, call('A', true))).toBe(true);
    expect(b.admit(HOST, call('C', true))).toBe(true);
    // Its answer counts: the exchange answered, both scopes close
    b.succeeded(HOST, call('A'));
    expect(b.admit(HOST, call('A'))).toBe(false);
  });

  it('lets one probe through after the cool-down, and another when the first never answers', () => {
    const { b, clock, fail } = breaker();
    fail('A', 3);
    clock.now = 1_000;
    expect(b.admit(HOST, call('A'))).toBe(false);
    // The probe's caller gave up: no answer is counted. Meanwhile calls wait for it
    expect(() => b.admit(HOST, call('A'))).toThrow(ExchangeCircuitOpenError);
    clock.now = 2_000;
    expect(b.admit(HOST, call('A'))).toBe(false);
    b.failed(HOST, call('A'));
    expect(() => b.admit(HOST, call('A'))).toThrow(/tries it again at 1970-01-01T00:00:03/);
  });

  it('touches no scope when one of two open ones still refuses', () => {
    const { b, clock, fail } = breaker();
    fail('A', 3);
    clock.now = 900;
    fail('B');
    // The host opened at 900, A's key at 0: at 1,000 A's key could probe, the host cannot yet
    clock.now = 1_000;
    expect(() => b.admit(HOST, call('A'))).toThrow(/^fapi\.binance\.com failed/);
    clock.now = 1_900;
    // Both may probe now (A's key was not left waiting for a probe that never went)
    expect(b.admit(HOST, call('A'))).toBe(false);
    b.succeeded(HOST, call('A'));
    expect(b.admit(HOST, call('B'))).toBe(false);
  });
});
