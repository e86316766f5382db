import { describe, expect, it } from 'vitest';
import { countdown, markInfo } from './funding';

describe('the mark price line', () => {
  it('reads the mark, funding rate and next funding time of a push', () => {
    expect(
      markInfo({
        symbol: 'BTCUSDT',
        markPrice: '58812.30',
        fundingRate: '0.00010000',
        nextFundingTime: 1_767_600_000_000,
        time: 1,
      }),
    ).toEqual({ markPrice: 58812.3, fundingRate: 0.0001, nextFundingTime: 1_767_600_000_000 });
  });

  it('leaves out funding figures the push does not carry or cannot be read, and shows nothing without a mark', () => {
    expect(markInfo({ symbol: 'BTCUSDT', markPrice: '1.5', fundingRate: 'n/a', time: 1 })).toEqual({
      markPrice: 1.5,
      fundingRate: undefined,
      nextFundingTime: undefined,
    });
    expect(markInfo(undefined)).toBeUndefined();
    expect(markInfo({ symbol: 'BTCUSDT', markPrice: 'x', time: 1 })).toBeUndefined();
  });

  it('counts down to the next funding as h:mm:ss, stopping at zero', () => {
    expect(countdown(10_000 + (3 * 3600 + 12 * 60 + 5) * 1000, 10_000)).toBe('3:12:05');
    expect(countdown(0, 5_000)).toBe('0:00:00');
  });
});
