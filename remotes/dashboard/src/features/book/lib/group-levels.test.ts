import { describe, expect, it } from 'vitest';
import { type BookLevel, groupBook, groupingChoices, groupLevels, spread } from './group-levels';

const BTC = { tickSize: '0.10', rows: 12 };

const bids: BookLevel[] = [
  ['64118.1', '0.500'],
  ['64117.9', '0.250'],
  ['64117.0', '1.000'],
  ['64116.9', '0.003'],
  ['64110.0', '2.000'],
];

const asks: BookLevel[] = [
  ['64118.2', '0.100'],
  ['64118.9', '0.200'],
  ['64119.0', '0.300'],
  ['64119.1', '0.400'],
  ['64125.0', '1.000'],
];

describe('groupLevels', () => {
  it('keeps every level at one tick, with running totals and depth shares', () => {
    const { rows, quantityDecimals } = groupLevels(bids, 'bid', { ...BTC, multiple: 1 });
    expect(quantityDecimals).toBe(3);
    expect(rows.map((r) => [r.price, r.size, r.total])).toEqual([
      ['64118.1', '0.500', '0.500'],
      ['64117.9', '0.250', '0.750'],
      ['64117.0', '1.000', '1.750'],
      ['64116.9', '0.003', '1.753'],
      ['64110.0', '2.000', '3.753'],
    ]);
    expect(rows.map((r) => r.share)).toEqual([500 / 3753, 750 / 3753, 1750 / 3753, 1753 / 3753, 1]);
  });

  it('rounds bids down to their bucket and merges the levels in it', () => {
    const { rows } = groupLevels(bids, 'bid', { ...BTC, multiple: 10 });
    expect(rows.map((r) => [r.price, r.size, r.total])).toEqual([
      ['64118.0', '0.500', '0.500'],
      ['64117.0', '1.250', '1.750'],
      ['64116.0', '0.003', '1.753'],
      ['64110.0', '2.000', '3.753'],
    ]);
  });

  it('rounds asks up to their bucket, a level on a bucket’s edge staying in it', () => {
    const { rows } = groupLevels(asks, 'ask', { ...BTC, multiple: 10 });
    expect(rows.map((r) => [r.price, r.size, r.total])).toEqual([
      ['64119.0', '0.600', '0.600'],
      ['64120.0', '0.400', '1.000'],
      ['64125.0', '1.000', '2.000'],
    ]);
    expect(groupLevels(asks, 'ask', { ...BTC, multiple: 100 }).rows).toEqual([
      { price: '64120.0', size: '1.000', total: '1.000', share: 0.5 },
      { price: '64130.0', size: '1.000', total: '2.000', share: 1 },
    ]);
  });

  it('keeps only the best `rows` buckets, whole', () => {
    const { rows } = groupLevels(bids, 'bid', { ...BTC, multiple: 10, rows: 2 });
    expect(rows.map((r) => [r.price, r.size, r.total, r.share])).toEqual([
      ['64118.0', '0.500', '0.500', 0.5 / 1.75],
      ['64117.0', '1.250', '1.750', 1],
    ]);
  });

  it('sums without float noise', () => {
    const levels: BookLevel[] = [
      ['0.3', '0.1'],
      ['0.2', '0.2'],
      ['0.1', '0.7'],
    ];
    const { rows } = groupLevels(levels, 'bid', { tickSize: '0.1', multiple: 1, rows: 5 });
    expect(rows.map((r) => r.total)).toEqual(['0.1', '0.3', '1.0']);
    const merged = groupLevels([...levels].reverse(), 'ask', { tickSize: '0.1', multiple: 10, rows: 5 }).rows;
    expect(merged).toEqual([{ price: '1.0', size: '1.0', total: '1.0', share: 1 }]);
  });

  it('writes prices with the tick’s decimals, for a small tick too', () => {
    const levels: BookLevel[] = [
      ['0.12345', '100'],
      ['0.1234', '50'],
      ['0.1229', '25'],
      ['0.1150', '10'],
    ];
    const tick = { tickSize: '0.0001', rows: 5 };
    expect(groupLevels(levels, 'bid', { ...tick, multiple: 1 }).rows.map((r) => r.price)).toEqual([
      // An off-tick price is rounded the bid's way, not cut by accident
      '0.1234',
      '0.1229',
      '0.1150',
    ]);
    expect(groupLevels(levels, 'bid', { ...tick, multiple: 10 }).rows.map((r) => [r.price, r.size])).toEqual([
      ['0.1230', '150'],
      ['0.1220', '25'],
      ['0.1150', '10'],
    ]);
    const asks = [...levels].reverse();
    expect(groupLevels(asks, 'ask', { ...tick, multiple: 50 }).rows.map((r) => [r.price, r.size])).toEqual([
      ['0.1150', '10'],
      ['0.1250', '175'],
    ]);
  });

  it('reads a whole-number tick and quantities without decimals', () => {
    const levels: BookLevel[] = [
      ['105', '3'],
      ['99', '4'],
    ];
    expect(groupLevels(levels, 'bid', { tickSize: '1', multiple: 10, rows: 5 }).rows).toEqual([
      { price: '100', size: '3', total: '3', share: 3 / 7 },
      { price: '90', size: '4', total: '7', share: 1 },
    ]);
  });

  it('skips levels with nothing on them and malformed ones', () => {
    const levels: BookLevel[] = [
      ['64118.1', '0.000'],
      ['oops', '1.000'],
      ['64117.0', '0.250'],
    ];
    expect(groupLevels(levels, 'bid', { ...BTC, multiple: 1 }).rows).toEqual([
      { price: '64117.0', size: '0.250', total: '0.250', share: 1 },
    ]);
  });

  it('gives no rows for an empty side', () => {
    expect(groupLevels([], 'ask', { ...BTC, multiple: 10 })).toEqual({ rows: [], quantityDecimals: 0 });
  });

  it('refuses a tick or a multiple it cannot bucket by', () => {
    expect(() => groupLevels(bids, 'bid', { ...BTC, tickSize: '0', multiple: 1 })).toThrow(RangeError);
    expect(() => groupLevels(bids, 'bid', { ...BTC, tickSize: 'abc', multiple: 1 })).toThrow(RangeError);
    expect(() => groupLevels(bids, 'bid', { ...BTC, multiple: 0 })).toThrow(RangeError);
    expect(() => groupLevels(bids, 'bid', { ...BTC, multiple: 2.5 })).toThrow(RangeError);
  });
});

describe('groupBook', () => {
  it('scales both sides’ depth against the deeper side, at one quantity precision', () => {
    const book = groupBook({
      bids: [['100.0', '3']],
      asks: [
        ['100.1', '0.5'],
        ['100.2', '0.50'],
      ],
      tickSize: '0.1',
      multiple: 1,
      rows: 12,
    });
    expect(book.quantityDecimals).toBe(2);
    expect(book.bids).toEqual([{ price: '100.0', size: '3.00', total: '3.00', share: 1 }]);
    expect(book.asks).toEqual([
      { price: '100.1', size: '0.50', total: '0.50', share: 0.5 / 3 },
      { price: '100.2', size: '0.50', total: '1.00', share: 1 / 3 },
    ]);
  });

  it('gives empty sides for an empty book', () => {
    expect(groupBook({ bids: [], asks: [], tickSize: '0.1', multiple: 1, rows: 12 })).toEqual({
      bids: [],
      asks: [],
      quantityDecimals: 0,
    });
  });
});

describe('groupingChoices', () => {
  it('labels each multiple by the price step it makes', () => {
    expect(groupingChoices('0.10')).toEqual([
      { multiple: 1, label: '0.1' },
      { multiple: 10, label: '1' },
      { multiple: 50, label: '5' },
      { multiple: 100, label: '10' },
      { multiple: 1000, label: '100' },
    ]);
    expect(groupingChoices('0.0001').map((c) => c.label)).toEqual([
      '0.0001',
      '0.001',
      '0.005',
      '0.01',
      '0.1',
    ]);
    expect(groupingChoices('1').map((c) => c.label)).toEqual(['1', '10', '50', '100', '1000']);
  });
});

describe('spread', () => {
  it('is the gap between the best prices, with the mid and its share of the mid', () => {
    const btc = spread('64118.1', '64118.2');
    expect(btc).toMatchObject({ absolute: '0.1', mid: '64118.15' });
    expect(btc?.percent).toBeCloseTo((0.1 / 64118.15) * 100, 15);
    const small = spread('0.1230', '0.1234');
    expect(small).toMatchObject({ absolute: '0.0004', mid: '0.1232' });
    expect(small?.percent).toBeCloseTo((0.0004 / 0.1232) * 100, 12);
    expect(spread('64118.10', '64118.3')?.absolute).toBe('0.20');
  });

  it('has none for an empty side, or a crossed or locked book', () => {
    expect(spread(undefined, '1.0')).toBeUndefined();
    expect(spread('1.0', undefined)).toBeUndefined();
    expect(spread('1.0', '1.0')).toBeUndefined();
    expect(spread('1.1', '1.0')).toBeUndefined();
  });
});
