import type { BacktestMetrics, OptimisationRow } from '@kestrel/contracts/backtest';
import { describe, expect, it } from 'vitest';
import { heatMap, objectiveScore, stability } from './grid-views';

const metrics = (sharpe: number, maxDrawdown = 0.1): BacktestMetrics => ({
  initialBalance: 100,
  finalEquity: 100,
  totalReturn: 0,
  annualisedReturn: 0,
  maxDrawdown,
  sharpe,
  sortino: 0,
  calmar: 0,
  tradeCount: 1,
  winRate: 0,
  profitFactor: null,
  exposure: 0,
  feesPaid: 0,
  fundingPaid: 0,
  liquidations: 0,
  bars: 10,
});

// fast × slow × side: the heat map keeps the better side per cell
const rows: OptimisationRow[] = [];
for (const fast of [5, 10])
  for (const slow of [20, 40])
    for (const side of ['long', 'short'])
      rows.push({
        index: rows.length,
        params: { fast, slow, side },
        metrics:
          fast === 10 && slow === 20 ? null : metrics(fast / 10 + slow / 100 + (side === 'long' ? 1 : 0)),
        error: fast === 10 && slow === 20 ? 'fast must be below slow' : null,
      });

describe('optimisation views', () => {
  it('heat map: the best over the other parameters per cell, refused cells empty', () => {
    const map = heatMap(rows, 'fast', 'slow', 'sharpe');
    expect(map.xs).toEqual([5, 10]);
    expect(map.ys).toEqual([20, 40]);
    expect(map.cells).toEqual([
      [1.7, null],
      [1.9, 2.4],
    ]);
    expect(map.rows[1]?.[1]?.params.side).toBe('long');
    expect([map.min, map.max]).toEqual([1.7, 2.4]);
  });

  it('stability: each parameter moved alone around the best combination', () => {
    const best = rows.find((r) => r.params.fast === 10 && r.params.slow === 40 && r.params.side === 'long');
    const lines = stability(rows, ['fast', 'slow', 'side'], best?.index ?? -1, 'sharpe');
    expect(lines.map((l) => [l.param, l.points.map((p) => p.score)])).toEqual([
      ['fast', [1.9, 2.4]],
      ['slow', [null, 2.4]],
      ['side', [2.4, 1.4]],
    ]);
    expect(lines[0]?.points.map((p) => p.isBest)).toEqual([false, true]);
  });

  it('ranks drawdown lowest first and refused rows last', () => {
    expect(objectiveScore(metrics(0, 0.2), 'maxDrawdown')).toBe(-0.2);
    expect(objectiveScore(null, 'sharpe')).toBe(Number.NEGATIVE_INFINITY);
  });
});
