/**
 * Worker-thread side of the agent's training and evidence: runs the one job it was started with and posts the
 * result (or the error's message and name: an EngineInputError stays recognisable across the thread boundary).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { agentEvidence } from '../agent/evidence';
import { trainAgentModel } from '../agent/model';
import type { AgentJob, AgentReply } from './agent-protocol';

const port = parentPort;
if (!port) throw new Error('agent-worker must run as a worker thread');
const job = workerData as AgentJob;
let reply: AgentReply;
try {
  reply =
    job.kind === 'train'
      ? { ok: true, model: trainAgentModel(job.input) }
      : { ok: true, evidence: agentEvidence(job.input) };
} catch (error) {
  reply = {
    ok: false,
    error: error instanceof Error ? error.message : String(error),
    name: error instanceof Error ? error.name : 'Error',
  };
}
port.postMessage(reply);
