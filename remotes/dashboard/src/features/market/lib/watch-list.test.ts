import { MAX_WATCHED_SYMBOLS } from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import { addSymbolProblem, DEFAULT_WATCH_LIST, readWatchList } from './watch-list';

describe('the watch list', () => {
  it('reads a stored list, upper-cased, without repeats or entries that are not symbols', () => {
    expect(readWatchList(JSON.stringify(['bnbusdt', 'BTCUSDT', 'BNBUSDT', 'no way!', 42]))).toEqual([
      'BNBUSDT',
      'BTCUSDT',
    ]);
  });

  it('falls back to the default list when nothing usable is stored', () => {
    for (const stored of [null, '', 'not json', '{"a":1}', '[]', '["??"]']) {
      expect(readWatchList(stored)).toBe(DEFAULT_WATCH_LIST);
    }
  });

  it('names what is wrong with a symbol before the exchange is asked', () => {
    expect(addSymbolProblem(['BTCUSDT'], 'BTCUSDT')).toBe('BTCUSDT is already in the watch list');
    expect(addSymbolProblem(['BTCUSDT'], 'BTC-USDT')).toBe(
      'symbol must be 3-20 letters or digits, e.g. BTCUSDT',
    );
    const full = Array.from({ length: MAX_WATCHED_SYMBOLS }, (_, i) => `S${i}USDT`);
    expect(addSymbolProblem(full, 'BNBUSDT')).toBe(
      `The watch list holds at most ${MAX_WATCHED_SYMBOLS} symbols`,
    );
    expect(addSymbolProblem(['BTCUSDT'], 'bnbusdt')).toBeUndefined();
  });
});
