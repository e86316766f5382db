import {
  type AgentApproval,
  AgentApprovalResponseSchema,
  AgentApprovalsResponseSchema,
  type AgentDecisionRecord,
  AgentDecisionRecordResponseSchema,
  type AgentDecisionSummary,
  AgentDecisionsResponseSchema,
  type AgentEvidence,
  AgentEvidenceResponseSchema,
  type AgentHealth,
  AgentHealthResponseSchema,
  type AgentStage,
  AgentStageResponseSchema,
  type AgentStatus,
  AgentStatusResponseSchema,
  AgentTrainingResponseSchema,
} from '@kestrel/contracts/agents';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { botKeys, botPath } from '../../bots/api/bot-keys';
import { invalidateBots } from '../../bots/api/invalidate-bots';

/**
 * The agent's own calls (`/api/v1/agents/{id}/agent`, `/decisions`, `/evidence`, `/health`, `/approvals`, `/train`,
 * `/kill`, `/latch/reset`, `/stage`). Keys sit under the bots' keys, so whatever refreshes a bot refreshes its agent.
 */
export const agentKeys = {
  all: (id: string) => [...botKeys.all, 'agent', id] as const,
  status: (id: string) => [...agentKeys.all(id), 'status'] as const,
  decisions: (id: string) => [...agentKeys.all(id), 'decisions'] as const,
  decision: (id: string, decisionId: string) => [...agentKeys.all(id), 'decision', decisionId] as const,
  evidence: (id: string) => [...agentKeys.all(id), 'evidence'] as const,
  health: (id: string) => [...agentKeys.all(id), 'health'] as const,
  approvals: (id: string) => [...agentKeys.all(id), 'approvals'] as const,
};

/** While the agent runs or trains, its status is read this often (model age, training state and risk move) */
export const AGENT_REFRESH_MS = 5_000;
/** Decisions shown at once on the timeline (newest first; "Show older" pages on) */
export const AGENT_DECISIONS_PAGE = 50;

export async function getAgentStatus(api: ApiClient, id: string, signal?: AbortSignal): Promise<AgentStatus> {
  return unwrap(await api.get(botPath(id, '/agent'), { schema: AgentStatusResponseSchema, signal })).data;
}

export async function getAgentDecisions(
  api: ApiClient,
  id: string,
  { before, limit = AGENT_DECISIONS_PAGE }: { before?: number; limit?: number } = {},
  signal?: AbortSignal,
): Promise<AgentDecisionSummary[]> {
  return unwrap(
    await api.get(botPath(id, '/decisions'), {
      query: { limit, ...(before !== undefined ? { before } : {}) },
      schema: AgentDecisionsResponseSchema,
      signal,
    }),
  ).data;
}

export async function getAgentDecision(
  api: ApiClient,
  id: string,
  decisionId: string,
  signal?: AbortSignal,
): Promise<AgentDecisionRecord> {
  return unwrap(
    await api.get(botPath(id, `/decisions/${encodeURIComponent(decisionId)}`), {
      schema: AgentDecisionRecordResponseSchema,
      signal,
    }),
  ).data;
}

export async function getAgentEvidence(
  api: ApiClient,
  id: string,
  signal?: AbortSignal,
): Promise<AgentEvidence> {
  return unwrap(await api.get(botPath(id, '/evidence'), { schema: AgentEvidenceResponseSchema, signal }))
    .data;
}

export async function getAgentHealth(api: ApiClient, id: string, signal?: AbortSignal): Promise<AgentHealth> {
  return unwrap(await api.get(botPath(id, '/health'), { schema: AgentHealthResponseSchema, signal })).data;
}

export async function getAgentApprovals(
  api: ApiClient,
  id: string,
  signal?: AbortSignal,
): Promise<AgentApproval[]> {
  return unwrap(await api.get(botPath(id, '/approvals'), { schema: AgentApprovalsResponseSchema, signal }))
    .data;
}

const isActive = (status: AgentStatus | undefined) =>
  status !== undefined &&
  (status.training.state === 'training' ||
    status.bot.state === 'running' ||
    status.bot.state === 'starting' ||
    status.bot.state === 'stopping');

export function getAgentStatusQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: agentKeys.status(id),
    queryFn: ({ signal }) => getAgentStatus(api, id, signal),
    // A 404 (unknown or someone else's agent) does not change by asking again
    retry: false,
  });
}

/** The agent: its bot, stage, latch, model, training, last decision, risk and promotion gates */
export function useAgentStatus(id: string) {
  const { api } = useKestrelRuntime();
  return useQuery({
    ...getAgentStatusQueryOptions(api, id),
    refetchInterval: (query) => (isActive(query.state.data) ? AGENT_REFRESH_MS : false),
  });
}

/** The newest decisions; refreshed by the decision pushes and, while the agent runs, by polling too */
export function useAgentDecisions(id: string, running: boolean, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    enabled,
    queryKey: agentKeys.decisions(id),
    queryFn: ({ signal }) => getAgentDecisions(api, id, {}, signal),
    refetchInterval: running ? AGENT_REFRESH_MS * 2 : false,
  });
}

/** One decision's full record, read when opened; a record does not change once its bar is closed and handled */
export function useAgentDecision(id: string, decisionId: string | null) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: agentKeys.decision(id, decisionId ?? ''),
    queryFn: ({ signal }) => getAgentDecision(api, id, decisionId ?? '', signal),
    enabled: decisionId !== null,
    retry: false,
  });
}

export function useAgentEvidence(id: string, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    enabled,
    queryKey: agentKeys.evidence(id),
    queryFn: ({ signal }) => getAgentEvidence(api, id, signal),
  });
}

export function useAgentHealth(id: string, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    enabled,
    queryKey: agentKeys.health(id),
    queryFn: ({ signal }) => getAgentHealth(api, id, signal),
  });
}

/** The approval queue; read every few seconds while proposals can arrive or wait */
export function useAgentApprovals(id: string, watching: boolean, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    enabled,
    queryKey: agentKeys.approvals(id),
    queryFn: ({ signal }) => getAgentApprovals(api, id, signal),
    refetchInterval: watching ? AGENT_REFRESH_MS : false,
  });
}

export type AgentCommand =
  | { kind: 'train' }
  | { kind: 'kill' }
  | { kind: 'reset' }
  | { kind: 'stage'; stage: AgentStage }
  | { kind: 'approve' | 'reject'; approvalId: string };

/** Sends one command; the server's refusal (409 while training, the failing gates of a promotion) is the error */
export async function sendAgentCommand(api: ApiClient, id: string, command: AgentCommand): Promise<void> {
  switch (command.kind) {
    case 'train':
      unwrap(await api.post(botPath(id, '/train'), {}, { schema: AgentTrainingResponseSchema }));
      return;
    case 'kill':
      unwrap(await api.post(botPath(id, '/kill'), {}));
      return;
    case 'reset':
      unwrap(await api.post(botPath(id, '/latch/reset'), {}));
      return;
    case 'stage':
      unwrap(
        await api.post(botPath(id, '/stage'), { stage: command.stage }, { schema: AgentStageResponseSchema }),
      );
      return;
    default:
      unwrap(
        await api.post(
          botPath(id, `/approvals/${encodeURIComponent(command.approvalId)}/${command.kind}`),
          {},
          { schema: AgentApprovalResponseSchema },
        ),
      );
  }
}

/**
 * Train, kill, reset the latch, change stage, approve or reject. Never retried: a kill or an approval must be sent
 * once and its answer shown. Everything of the agent (and the bots' lists) is read again after
 */
export function useAgentCommand(id: string) {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (command: AgentCommand) => sendAgentCommand(api, id, command),
    retry: false,
    onSettled: () => invalidateBots(queryClient),
  });
}
