import { describe, expect, it } from 'vitest';
import { missingSpans } from './kline-cache';

describe('missingSpans', () => {
  it('is the whole range when nothing is covered', () => {
    expect(missingSpans(0, 100, [])).toEqual([{ start: 0, end: 100 }]);
  });

  it('leaves out covered parts, including overlapping spans', () => {
    const covered = [
      { start: -50, end: 10 },
      { start: 30, end: 50 },
      { start: 40, end: 60 },
      { start: 90, end: 200 },
    ];
    expect(missingSpans(0, 100, covered)).toEqual([
      { start: 10, end: 30 },
      { start: 60, end: 90 },
    ]);
  });

  it('is empty when the range is covered', () => {
    expect(missingSpans(20, 40, [{ start: 0, end: 100 }])).toEqual([]);
  });
});
