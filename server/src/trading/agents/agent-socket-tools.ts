import type { AgentDecisionSummary, AgentStatus } from '@kestrel/contracts/agents';
import type { Bot } from '@kestrel/contracts/bots';
import { z } from 'zod';
import { asData, NoArgsSchema, type SocketTools } from '../../core/socket/socket-tools';

const agentId = z.uuid({ error: 'agent_id must be an agent id (a UUID)' });
const AgentArgsSchema = z.object({ agent_id: agentId });
export const AGENT_DECISIONS_TOOL_MAX = 100;
const AgentDecisionsArgsSchema = z.object({
  agent_id: agentId,
  limit: z
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(AGENT_DECISIONS_TOOL_MAX, { error: `limit must be at most ${AGENT_DECISIONS_TOOL_MAX}` })
    .default(20),
  before: z
    .number({ error: 'before must be a time in milliseconds' })
    .int({ error: 'before must be a whole number of milliseconds' })
    .positive({ error: 'before must be a time in milliseconds' })
    .optional(),
});

/**
 * What the agents' tools read, always as the socket's user: an unknown or another user's agent is the same 404
 * (answered as the tool's `{ success: false, error }`). Nothing here changes anything: a tool that did would need
 * the owner's fresh consent (step-up), not just an open socket
 */
export interface AgentToolsPort {
  list(userId: string): Promise<Bot[]>;
  status(userId: string, agentId: string): Promise<AgentStatus>;
  decisions(
    userId: string,
    agentId: string,
    page: { limit: number; before?: number | undefined },
  ): Promise<AgentDecisionSummary[]>;
}

/** The agents' read-only tools of the live socket (issue 18), registered by the agents plugin */
export function registerAgentSocketTools(tools: SocketTools, agents: AgentToolsPort): void {
  tools.register({
    info: {
      name: 'list_agents',
      description: "The signed-in user's AI agents (bots of kind agent), oldest first. Read-only",
      inputSchema: { type: 'object', properties: {} },
    },
    args: NoArgsSchema,
    call: (caller) => asData(() => agents.list(caller.userId)),
  });
  tools.register({
    info: {
      name: 'get_agent_status',
      description:
        "One of the user's agents: stage, latch, model age and expiry, training, last decision, risk against " +
        'limits (as GET /api/v1/agents/{id}/agent). Read-only',
      inputSchema: {
        type: 'object',
        properties: { agent_id: { type: 'string', format: 'uuid' } },
        required: ['agent_id'],
      },
    },
    args: AgentArgsSchema,
    call: (caller, a) => asData(() => agents.status(caller.userId, a.agent_id)),
  });
  tools.register({
    info: {
      name: 'get_agent_decisions',
      description:
        "An agent's decisions, newest first, holds included (as GET /api/v1/agents/{id}/decisions). Read-only",
      inputSchema: {
        type: 'object',
        properties: {
          agent_id: { type: 'string', format: 'uuid' },
          limit: { type: 'integer', minimum: 1, maximum: AGENT_DECISIONS_TOOL_MAX, default: 20 },
          before: { type: 'integer', description: 'Only decisions of bars opened before this time (ms)' },
        },
        required: ['agent_id'],
      },
    },
    args: AgentDecisionsArgsSchema,
    call: (caller, a) =>
      asData(() => agents.decisions(caller.userId, a.agent_id, { limit: a.limit, before: a.before })),
  });
}
