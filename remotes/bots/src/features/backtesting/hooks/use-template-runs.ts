import type { BacktestRequestInput, BacktestSummary } from '@kestrel/contracts/backtest';
import { useKestrelRuntime, useSession } from '@kestrel/shared-runtime/react';
import { useEffect, useRef, useState } from 'react';
import { useCreateBacktest } from '../api/create-backtest';
import { useBacktests } from '../api/get-backtests';

/** One template's figures: its run (queued, running or done), or why there is none */
export interface TemplateRun {
  run: BacktestSummary | null;
  error: string | null;
  /** Runs the backtest again (after a failure) */
  retry: () => void;
}

type Stored = Record<string, { id: string; startTime: number }>;

/** Which run belongs to which template, per user, in this browser: a template is backtested once a day, not per visit */
export const templateRunsStorageKey = (userId: string) => `kestrel-bot-hub-runs:${userId}`;

function read(text: string | null): Stored {
  try {
    const value: unknown = text ? JSON.parse(text) : {};
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Stored) : {};
  } catch {
    return {};
  }
}

/**
 * Each template's backtest over the same recent window: reused while the window is the same (today) and the run
 * is still among the user's runs (a failed one too, with Run again), else queued once. Progress comes with the backtest pushes (`useBacktestNotices`)
 */
export function useTemplateRuns(requests: readonly BacktestRequestInput[]): Record<string, TemplateRun> {
  const { storage } = useKestrelRuntime();
  const key = templateRunsStorageKey(useSession().user?.id ?? 'anonymous');
  const runs = useBacktests();
  // mutateAsync, not mutate: a mutation's per-call callbacks fire for its latest call only, and this makes several
  const { mutateAsync: createRun } = useCreateBacktest();
  const [created, setCreated] = useState<Record<string, BacktestSummary>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  // At most one POST per template per visit, whatever the list says in between
  const attempted = useRef(new Set<string>());
  const [retries, setRetries] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `retries` re-runs it after a retry cleared an attempt
  useEffect(() => {
    if (!runs.data) return;
    const stored = read(storage.getItem(key));
    for (const request of requests) {
      const entry = stored[request.strategy];
      const known =
        entry && entry.startTime === request.startTime ? runs.data.find((r) => r.id === entry.id) : undefined;
      // A failed run stays until the user asks again (its error says why): a fault of the data would fail each visit
      if (known || attempted.current.has(request.strategy)) continue;
      attempted.current.add(request.strategy);
      createRun(request).then(
        (summary) => {
          const latest = read(storage.getItem(key));
          latest[request.strategy] = { id: summary.id, startTime: request.startTime };
          storage.setItem(key, JSON.stringify(latest));
          setCreated((c) => ({ ...c, [request.strategy]: summary }));
        },
        (error: Error) => setErrors((e) => ({ ...e, [request.strategy]: error.message })),
      );
    }
  }, [runs.data, requests, storage, key, createRun, retries]);

  const stored = read(storage.getItem(key));
  const result: Record<string, TemplateRun> = {};
  for (const request of requests) {
    const entry = stored[request.strategy];
    const listed =
      entry && entry.startTime === request.startTime ? runs.data?.find((r) => r.id === entry.id) : undefined;
    const run = listed ?? created[request.strategy] ?? null;
    result[request.strategy] = {
      run,
      error: errors[request.strategy] ?? (runs.error ? runs.error.message : null),
      retry: () => {
        attempted.current.delete(request.strategy);
        setErrors(({ [request.strategy]: _, ...rest }) => rest);
        const latest = read(storage.getItem(key));
        delete latest[request.strategy];
        storage.setItem(key, JSON.stringify(latest));
        setCreated(({ [request.strategy]: _, ...rest }) => rest);
        setRetries((n) => n + 1);
      },
    };
  }
  return result;
}
