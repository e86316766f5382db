import { describe, expect, it } from 'vitest';
import { metrics, summary } from '../../../test/fixtures';
import { compareRuns, isComparable, selectedRuns, toggleRun } from './comparison';

const rowOf = (rows: ReturnType<typeof compareRuns>, key: string) => {
  const row = rows.find((r) => r.key === key);
  if (!row) throw new Error(`no row ${key}`);
  return row;
};

describe('comparing runs', () => {
  const a = summary('a', { metrics: metrics({ totalReturn: 0.1, maxDrawdown: 0.2, sharpe: 1 }) });
  const b = summary('b', { metrics: metrics({ totalReturn: 0.3, maxDrawdown: 0.05, sharpe: 0.5 }) });
  const c = summary('c', { metrics: metrics({ totalReturn: -0.1, maxDrawdown: 0.4, sharpe: 1 }) });

  it('puts each metric of the runs side by side, in the order the runs were picked', () => {
    const row = rowOf(compareRuns([b, a, c]), 'totalReturn');
    expect(row.cells.map((cell) => [cell.runId, cell.text, cell.tone])).toEqual([
      ['b', '+30.00%', 'positive'],
      ['a', '+10.00%', 'positive'],
      ['c', '-10.00%', 'negative'],
    ]);
  });

  it('marks the highest return but the lowest drawdown as best', () => {
    const rows = compareRuns([a, b, c]);
    expect(rowOf(rows, 'totalReturn').cells.map((cell) => cell.best)).toEqual([false, true, false]);
    expect(rowOf(rows, 'maxDrawdown').cells.map((cell) => cell.best)).toEqual([false, true, false]);
  });

  it('marks every run sharing the best figure, and none when all are equal', () => {
    const rows = compareRuns([a, b, c]);
    expect(rowOf(rows, 'sharpe').cells.map((cell) => cell.best)).toEqual([true, false, true]);
    const same = compareRuns([a, summary('a2', { metrics: a.metrics })]);
    expect(rowOf(same, 'totalReturn').cells.every((cell) => !cell.best)).toBe(true);
  });

  it('never ranks the trade count: more trades is not better', () => {
    const rows = compareRuns([a, summary('d', { metrics: metrics({ tradeCount: 99 }) })]);
    expect(rowOf(rows, 'tradeCount').cells.some((cell) => cell.best)).toBe(false);
  });

  it('ranks a run without a losing trade above any profit factor, and a run without trades not at all', () => {
    const noLoss = summary('n', { metrics: metrics({ profitFactor: null, tradeCount: 4 }) });
    const noTrades = summary('z', { metrics: metrics({ profitFactor: null, tradeCount: 0, winRate: 0 }) });
    const rows = compareRuns([a, noLoss, noTrades]);
    expect(rowOf(rows, 'profitFactor').cells.map((cell) => [cell.text, cell.best])).toEqual([
      ['1.80', false],
      ['∞', true],
      ['—', false],
    ]);
    expect(rowOf(rows, 'winRate').cells[2]).toMatchObject({ text: '—', best: false });
  });

  it('shows a dash for a run without figures and never calls it best', () => {
    const failed = summary('f', { status: 'failed', metrics: null });
    const row = rowOf(compareRuns([a, failed]), 'totalReturn');
    expect(row.cells[1]).toMatchObject({ text: '—', best: false });
    expect(row.cells[0]?.best).toBe(false);
  });
});

describe('selection', () => {
  it('adds and removes runs, keeping the order they were picked in', () => {
    expect(toggleRun([], 'b')).toEqual(['b']);
    expect(toggleRun(['b'], 'a')).toEqual(['b', 'a']);
    expect(toggleRun(['b', 'a'], 'b')).toEqual(['a']);
  });

  it('drops selected runs that no longer exist (deleted)', () => {
    const runs = [summary('a'), summary('b')];
    expect(selectedRuns(runs, ['b', 'gone', 'a']).map((r) => r.id)).toEqual(['b', 'a']);
  });

  it('compares only completed runs with figures', () => {
    expect(isComparable(summary('a'))).toBe(true);
    expect(isComparable(summary('r', { status: 'running', metrics: null }))).toBe(false);
    expect(isComparable(summary('c', { status: 'canceled', metrics: null }))).toBe(false);
  });
});
