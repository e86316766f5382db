import type { AgentEvidence, AgentEvidenceInput } from '../agent/evidence';
import type { TrainAgentInput } from '../agent/model';
import type { AgentModel } from '../agent/types';

/** What the agent worker is asked to do (one job per worker) */
export type AgentJob =
  | { kind: 'train'; input: TrainAgentInput }
  | { kind: 'evidence'; input: AgentEvidenceInput };

export type AgentReply =
  | { ok: true; model: AgentModel }
  | { ok: true; evidence: AgentEvidence }
  | { ok: false; error: string; name: string };
