import { describe, expect, it } from 'vitest';
import { generateBars } from '../bars/bars';
import { runSweep } from '../optimise/sweep';
import { walkForward } from '../optimise/walk-forward';
import { emaCrossStrategy } from '../strategies/ema-cross/strategy';
import { runSweepParallel, SweepAbortedError, SweepPool, walkForwardParallel } from './parallel-sweep';

const settings = { broker: { fundingRate: 0, minNotional: 5 } };
const bars = generateBars({ seed: 11, count: 3_000, startTime: Date.UTC(2025, 0, 1, 1), volatility: 0.002 });
const space = { fast: [4, 6, 8, 10], slow: [20, 30, 6] };

// Worker start-up loads the TypeScript sources through tsx: seconds on a busy 2-core machine
describe('parallel sweep on worker threads', { timeout: 30_000 }, () => {
  it('gives exactly the single-thread results', async () => {
    const local = runSweep(emaCrossStrategy, { side: 'both' }, space, bars, settings, 'sharpe');
    const parallel = await runSweepParallel('ema-cross', { side: 'both' }, space, bars, settings, 'sharpe', {
      workers: 2,
      batchSize: 3,
    });
    expect(parallel).toEqual(local);
    // slow 6 is refused for fast 6, 8 and 10
    expect(parallel.filter((r) => r.error !== null)).toHaveLength(3);
  });

  it('runs the walk-forward optimisation on workers with the same outcome', async () => {
    const options = { inSampleBars: 2_000, outSampleBars: 500, objective: 'totalReturn' as const };
    const local = await walkForward(
      emaCrossStrategy,
      {},
      { fast: [4, 8], slow: [20, 30] },
      bars,
      settings,
      options,
    );
    const parallel = await walkForwardParallel(
      'ema-cross',
      {},
      { fast: [4, 8], slow: [20, 30] },
      bars,
      settings,
      options,
      {
        workers: 2,
      },
    );
    expect(parallel).toEqual(local);
  });

  it('reports progress, returns per period, and stops its workers within a second of an abort', async () => {
    const big = generateBars({ seed: 2, count: 200_000, startTime: Date.UTC(2025, 0, 1), volatility: 0.001 });
    const pool = new SweepPool('ema-cross', big, settings, { workers: 2, batchSize: 1 });
    const done: number[] = [];
    const first = await pool.run([{ fast: 5, slow: 20 }], {
      periodBars: 1_440,
      onProgress: (d) => done.push(d),
    });
    expect(done).toEqual([1]);
    expect(first[0]?.returns).toHaveLength(138);
    const controller = new AbortController();
    const combos = Array.from({ length: 400 }, (_, i) => ({ fast: 2 + (i % 50), slow: 60 + i }));
    const running = pool.run(combos, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const abortedAt = performance.now();
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(SweepAbortedError);
    expect(performance.now() - abortedAt).toBeLessThan(1_000);
    await expect(pool.run(combos)).rejects.toThrow(/closed/);
  });

  it('refuses an unknown strategy before starting workers', async () => {
    await expect(runSweepParallel('nope', {}, { a: [1] }, bars)).rejects.toThrow(/unknown strategy "nope"/);
  });
});
