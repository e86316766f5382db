import { describe, expect, it } from 'vitest';
import { classifyFailure, failureText } from './order-failure';

describe('what a failed order means', () => {
  it("is refused by Binance when the exchange said no: Binance's reason, nothing placed", () => {
    const failure = classifyFailure({
      success: false,
      error: "Order's notional must be no smaller than 100",
      status: 400,
      code: 'EXCHANGE_REJECTED',
    });
    expect(failure).toEqual({
      kind: 'refused',
      by: 'binance',
      reason: "Order's notional must be no smaller than 100",
    });
    expect(failureText(failure)).toBe("Binance refused it: Order's notional must be no smaller than 100");
  });

  it("is refused by Kestrel's account limit, never called Binance's refusal, with the limit named", () => {
    const reason = 'Order refused: it would take leverage to 2.5×, above your max leverage limit of 2×';
    const failure = classifyFailure({ success: false, error: reason, status: 422, code: 'RISK_LIMIT' });
    expect(failure).toEqual({ kind: 'refused', by: 'kestrel-limit', reason });
    expect(failureText(failure)).toBe(
      `Your Kestrel account limit refused it, nothing was sent to Binance: ${reason}`,
    );
    expect(failureText(failure)).not.toMatch(/Binance refused/);
  });

  it('is refused by Kestrel when the server turned the request down before the exchange', () => {
    const failure = classifyFailure({
      success: false,
      error: 'quantity: must be a positive decimal',
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    expect(failure).toMatchObject({ kind: 'refused', by: 'kestrel' });
    expect(failureText(failure)).toBe(
      'Kestrel refused it, nothing was sent to Binance: quantity: must be a positive decimal',
    );
  });

  it('is of unknown status when the answer was lost, whoever lost it', () => {
    expect(
      classifyFailure({ success: false, error: 'x', status: 503, code: 'ORDER_STATUS_UNKNOWN' }).kind,
    ).toBe('unknown');
    expect(classifyFailure({ success: false, error: 'Connection failed', unreachable: true }).kind).toBe(
      'unknown',
    );
    expect(classifyFailure({ success: false, error: 'Internal Server Error', status: 500 }).kind).toBe(
      'unknown',
    );
  });

  it('is not sent when the server proved the exchange has no such order, or the call never left', () => {
    expect(
      classifyFailure({ success: false, error: 'x', status: 503, code: 'EXCHANGE_UNREACHABLE' }).kind,
    ).toBe('not-sent');
    expect(classifyFailure({ success: false, error: 'x', status: 503, code: 'ORDER_NOT_PLACED' }).kind).toBe(
      'not-sent',
    );
    expect(classifyFailure({ success: false, error: 'Circuit breaker is OPEN' }).kind).toBe('not-sent');
  });
});
