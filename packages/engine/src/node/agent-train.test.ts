import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../agent/config';
import { agentEvidence } from '../agent/evidence';
import { trainAgentModel } from '../agent/model';
import { agentWorld } from '../agent/worlds';
import { BarSeries } from '../bars/bars';
import { appendBarOf } from '../bars/test-bars';
import { EngineInputError } from '../errors';
import { AgentWorkerAbortedError, agentEvidenceInWorker, trainAgentInWorker } from './agent-train';

const config = parseAgentConfig({ trainBars: 600, horizonBars: 4, retrainHours: 48 });

describe('agent training on a worker thread', { timeout: 120_000 }, () => {
  it('trains the same model as in process, from a live series whose columns are longer than its bars', async () => {
    const world = agentWorld({ bars: 1_500, seed: 9, phi: 0.2, aux: true });
    // A live series: capacity beyond its length, as the runtime's growing series has
    const series = new BarSeries(world.intervalMs, 4_096);
    for (let i = 0; i < world.length; i++) appendBarOf(series, world.bars, i);
    const snapshot = { ...world, bars: series };
    const input = { snapshot, config, from: 0, to: 1_500, trainedAt: 42 };
    const model = await trainAgentInWorker(input);
    expect(model).toEqual(trainAgentModel(input));
  });

  it('answers evidence from the worker and keeps input errors recognisable', async () => {
    const world = agentWorld({ bars: 1_800, seed: 9, phi: 0.2 });
    const evidence = await agentEvidenceInWorker({ snapshot: world, config, samples: 20, cvFolds: 3 });
    expect(evidence).toEqual(agentEvidence({ snapshot: world, config, samples: 20, cvFolds: 3 }));
    const short = agentWorld({ bars: 120, seed: 9, phi: 0 });
    await expect(
      trainAgentInWorker({ snapshot: short, config, from: 0, to: 120, trainedAt: 0 }),
    ).rejects.toThrow(EngineInputError);
  });

  it('stops at once when aborted', async () => {
    const world = agentWorld({ bars: 1_500, seed: 9, phi: 0.2 });
    const controller = new AbortController();
    const pending = trainAgentInWorker(
      { snapshot: world, config, from: 0, to: 1_500, trainedAt: 0 },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AgentWorkerAbortedError);
  });
});
