/**
 * The page's main thread as Chromium's trace sees it, for the browser benches on a shared machine. A long task
 * (PerformanceObserver 'longtask') is measured in wall time: on 2 cores at load 10 the renderer gets a fifth of a
 * core, so a 10 ms task reads 50 ms. The trace also records each task's thread time (`tdur`, the CPU the task
 * itself used), which is what the task would take on a quiet machine: the benches print both.
 *
 * `BENCH_TRACE=<file>` also writes the trace (with the V8 sampling profiler's samples, which slow the page) to that
 * file, for Chromium DevTools' Performance panel or https://ui.perfetto.dev.
 */
import { writeFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
/** With BENCH_TRACE: where the time went inside each task, by JavaScript function */
const PROFILER = ['disabled-by-default-v8.cpu_profiler', 'v8.execute', 'v8'];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: unknown };
}

export interface MainThreadTasks {
  tasks: number;
  /** Tasks over 50 ms of wall time (what a long task is) */
  overWall: number[];
  /** Tasks over 50 ms of the main thread's own CPU time: the long tasks of a quiet machine */
  overCpu: number[];
  longestCpu: number;
  /** All tasks' wall and CPU time, ms */
  wallMs: number;
  cpuMs: number;
}

/** Starts a trace of the page's renderer; `stop()` ends it and sums the main thread's tasks */
export async function traceMainThread(
  browser: Browser,
  page: Page,
): Promise<{ stop(): Promise<MainThreadTasks> }> {
  const file = process.env.BENCH_TRACE;
  await browser.startTracing(page, { categories: file ? [...CATEGORIES, ...PROFILER] : CATEGORIES });
  return {
    async stop() {
      const buffer = await browser.stopTracing();
      if (file) await writeFile(file, buffer);
      const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
      return mainThreadTasks(traceEvents);
    },
  };
}

function mainThreadTasks(events: readonly TraceEvent[]): MainThreadTasks {
  const thread = (e: TraceEvent) => `${e.pid}:${e.tid}`;
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map(thread),
  );
  // The sampling profiler (BENCH_TRACE) starts inside a task: that task is the trace's, not the page's
  const profilerStarts = events.filter((e) => e.name === 'CpuProfiler::StartProfiling');
  const startsProfiler = (task: TraceEvent) =>
    profilerStarts.some(
      (e) => thread(e) === thread(task) && e.ts >= task.ts && e.ts <= task.ts + (task.dur ?? 0),
    );
  // Tasks of every renderer's main thread (the page is one; an idle one adds only short tasks)
  const tasks = events.filter(
    (e) => e.ph === 'X' && e.name === 'RunTask' && mains.has(thread(e)) && !startsProfiler(e),
  );
  const ms = (us: number | undefined) => (us ?? 0) / 1000;
  const cpu = tasks.map((t) => ms(t.tdur));
  return {
    tasks: tasks.length,
    overWall: tasks.map((t) => ms(t.dur)).filter((d) => d > 50),
    overCpu: cpu.filter((d) => d > 50),
    longestCpu: Math.max(0, ...cpu),
    wallMs: tasks.reduce((sum, t) => sum + ms(t.dur), 0),
    cpuMs: cpu.reduce((sum, d) => sum + d, 0),
  };
}
