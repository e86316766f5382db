import { agentEvidence, trainAgentModel } from '@kestrel/engine';
import type { AgentTrainer } from '../src/trading/agents/agent-training';

/**
 * Trains agents and computes their evidence in the test's own thread (production trains on worker threads; the
 * engine's own tests cover the worker): the same engine functions, without a thread per test on a shared 2-core
 * machine; a test waits for the agent service to be idle
 */
export const inProcessAgentTrainer: AgentTrainer = {
  train: async (input) => trainAgentModel(input),
  evidence: async (input) => agentEvidence(input),
};
