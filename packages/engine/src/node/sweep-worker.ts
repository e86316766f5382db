/**
 * Worker-thread side of the parallel sweep: rebuilds the bar series over the shared memory it was handed, looks the
 * strategy up by id (functions cannot cross threads) and runs its share of the combinations.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BarSeries } from '../bars/bars';
import { runCombos, type SweepScratch, sweepScratch } from '../optimise/sweep';
import { getBuiltInStrategy } from '../strategies/built-in';
import type { SweepJob, SweepReply, SweepTask } from './sweep-protocol';

const job = workerData as SweepJob;

/** A series over [start, end) of the shared columns: views, no copy */
function window(start: number, end: number): BarSeries {
  const { intervalMs, openTime, open, high, low, close, volume } = job.bars;
  return BarSeries.fromColumns(intervalMs, {
    openTime: openTime.subarray(start, end),
    open: open.subarray(start, end),
    high: high.subarray(start, end),
    low: low.subarray(start, end),
    close: close.subarray(start, end),
    volume: volume.subarray(start, end),
  });
}

// The current window's bars and scratch (equity buffer, batch columns), kept across batches over the same window
let cached: { start: number; end: number; bars: BarSeries; scratch: SweepScratch } | null = null;

const port = parentPort;
if (!port) throw new Error('sweep-worker must run as a worker thread');
port.on('message', (task: SweepTask) => {
  try {
    if (cached === null || cached.start !== task.start || cached.end !== task.end) {
      const bars = window(task.start, task.end);
      cached = { start: task.start, end: task.end, bars, scratch: sweepScratch(bars) };
    }
    const results = runCombos(
      getBuiltInStrategy(job.strategyId),
      task.combos,
      cached.bars,
      job.settings,
      cached.scratch,
      task.periodBars,
    );
    const reply: SweepReply = { results, error: null };
    port.postMessage(reply);
  } catch (error) {
    const reply: SweepReply = { results: [], error: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});
