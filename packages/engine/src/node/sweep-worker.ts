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
  const bars = new BarSeries(job.bars.intervalMs, 1);
  bars.openTime = job.bars.openTime.subarray(start, end);
  bars.open = job.bars.open.subarray(start, end);
  bars.high = job.bars.high.subarray(start, end);
  bars.low = job.bars.low.subarray(start, end);
  bars.close = job.bars.close.subarray(start, end);
  bars.volume = job.bars.volume.subarray(start, end);
  bars.length = end - start;
  return bars;
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
    );
    const reply: SweepReply = { results, error: null };
    port.postMessage(reply);
  } catch (error) {
    const reply: SweepReply = { results: [], error: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});
