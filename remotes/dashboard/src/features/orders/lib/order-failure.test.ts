import { describe, expect, it } from 'vitest';
import { classifyFailure } from './order-failure';

describe('what a failed order means', () => {
  it("is refused when the exchange or the server said no: Binance's reason, nothing placed", () => {
    expect(
      classifyFailure({ success: false, error: "Order's notional must be no smaller than 100", status: 400 }),
    ).toEqual({ kind: 'refused', reason: "Order's notional must be no smaller than 100" });
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
