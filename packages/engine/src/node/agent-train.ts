import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AgentEvidence, AgentEvidenceInput } from '../agent/evidence';
import type { TrainAgentInput } from '../agent/model';
import type { AgentModel, AgentSnapshot } from '../agent/types';
import { EngineInputError } from '../errors';
import type { AgentJob, AgentReply } from './agent-protocol';

export interface AgentWorkerOptions {
  /** Terminates the worker at once and rejects with AgentWorkerAbortedError */
  signal?: AbortSignal;
}

export class AgentWorkerAbortedError extends Error {
  override readonly name = 'AgentWorkerAbortedError';
  constructor() {
    super('agent worker aborted');
  }
}

// As for the sweep workers: Node 20 does not apply tsx's hooks to a worker's entry, so a tiny bootstrap loads it
const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(
  /\.cjs$/,
  '.mjs',
);
const workerEntry = new URL('./agent-worker.ts', import.meta.url).href;
const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => m.tsImport(${JSON.stringify(workerEntry)}, ${JSON.stringify(workerEntry)}))`;

/** Only bars [0, length) travel (a live series' columns are longer than its bars) */
function compactSnapshot(snapshot: AgentSnapshot): AgentSnapshot {
  const n = snapshot.length;
  const cut = (a: Float64Array | undefined) => (a ? a.slice(0, Math.min(n, a.length)) : undefined);
  const { bars, aux } = snapshot;
  const compactAux: AgentSnapshot['aux'] = {};
  for (const key of ['fundingRate', 'openInterest', 'markPrice', 'indexPrice', 'btcClose'] as const) {
    const column = cut(aux[key]);
    if (column) compactAux[key] = column;
  }
  return {
    intervalMs: snapshot.intervalMs,
    length: n,
    bars: {
      openTime: bars.openTime.slice(0, n),
      open: bars.open.slice(0, n),
      high: bars.high.slice(0, n),
      low: bars.low.slice(0, n),
      close: bars.close.slice(0, n),
      volume: bars.volume.slice(0, n),
    },
    aux: compactAux,
  };
}

function runJob(job: AgentJob, options: AgentWorkerOptions): Promise<AgentReply> {
  if (options.signal?.aborted) return Promise.reject(new AgentWorkerAbortedError());
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: job });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const onAbort = () => finish(() => reject(new AgentWorkerAbortedError()));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (reply: AgentReply) => finish(() => resolve(reply)));
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', (code) =>
      finish(() => reject(new Error(`agent worker stopped (exit code ${code})`))),
    );
  });
}

function unwrapError(reply: Extract<AgentReply, { ok: false }>): Error {
  return reply.name === 'EngineInputError' ? new EngineInputError(reply.error) : new Error(reply.error);
}

/** `trainAgentModel` on a worker thread (the event loop stays free while a year of bars trains) */
export async function trainAgentInWorker(
  input: TrainAgentInput,
  options: AgentWorkerOptions = {},
): Promise<AgentModel> {
  const reply = await runJob(
    { kind: 'train', input: { ...input, snapshot: compactSnapshot(input.snapshot) } },
    options,
  );
  if (!reply.ok) throw unwrapError(reply);
  if (!('model' in reply)) throw new Error('agent worker answered a training job without a model');
  return reply.model;
}

/** `agentEvidence` on a worker thread */
export async function agentEvidenceInWorker(
  input: AgentEvidenceInput,
  options: AgentWorkerOptions = {},
): Promise<AgentEvidence> {
  const reply = await runJob(
    { kind: 'evidence', input: { ...input, snapshot: compactSnapshot(input.snapshot) } },
    options,
  );
  if (!reply.ok) throw unwrapError(reply);
  if (!('evidence' in reply)) throw new Error('agent worker answered an evidence job without evidence');
  return reply.evidence;
}
