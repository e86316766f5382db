import type { ConnectionTestReply, SocketToolInfo, SocketToolName } from '@kestrel/contracts';
import type { AgentDecisionSummary, AgentStatus } from '@kestrel/contracts/agents';
import type { Bot } from '@kestrel/contracts/bots';
import { z } from 'zod';
import { HttpError } from '../../lib/http-error';
import type { CredentialsService } from '../credentials/credentials-service';

/** A tool's arguments were wrong: answered as JSON-RPC -32602 with this message */
export class InvalidToolArgumentsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidToolArgumentsError';
  }
}

const TestConnectionArgsSchema = z.object({
  api_key: z.string({ error: 'api_key must be a string' }).trim().min(1, 'api_key is required'),
  secret_key: z.string({ error: 'secret_key must be a string' }).trim().min(1, 'secret_key is required'),
  testnet: z.boolean({ error: 'testnet must be true or false' }).default(false),
});
const NoArgsSchema = z.object({});
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

export const SOCKET_TOOLS: readonly SocketToolInfo[] = [
  {
    name: 'test_binance_connection',
    description: "Tests Binance USDⓈ-M futures API keys against the exchange's account endpoint",
    inputSchema: {
      type: 'object',
      properties: {
        api_key: { type: 'string' },
        secret_key: { type: 'string' },
        testnet: { type: 'boolean', default: false },
      },
      required: ['api_key', 'secret_key'],
    },
  },
  {
    name: 'get_account_balance',
    description: 'Balances of the Binance futures account whose keys are stored for the signed-in user',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'get_server_status',
    description: 'Health of this server: uptime, database driver, connected sockets',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'list_agents',
    description: "The signed-in user's AI agents (bots of kind agent), oldest first. Read-only",
    inputSchema: { type: 'object', properties: {} },
  },
  {
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
  {
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
];

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

export interface SocketToolDeps {
  credentials: CredentialsService;
  status(): Record<string, unknown>;
  agents: AgentToolsPort;
}

export interface ToolCaller {
  userId: string;
}

function parseArgs<T>(schema: z.ZodType<T>, tool: string, args: unknown): T {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new InvalidToolArgumentsError(
    `Invalid arguments for ${tool}: ${where}${issue?.message ?? 'invalid'}`,
  );
}

/** A refusal (404 for a foreign agent…) is the tool's answer ({success:false}), like the connection tests' */
async function asData(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { success: true, data: await run() };
  } catch (err) {
    if (err instanceof HttpError) return { success: false, error: err.message };
    throw err;
  }
}

/** The exchange's or the vault's refusal is the tool's answer ({success:false}), as the browser expects it */
async function asReply(run: () => Promise<{ data: ConnectionTestReply['data']; message: string }>) {
  try {
    const { data, message } = await run();
    return { success: true, data, message } satisfies ConnectionTestReply;
  } catch (err) {
    if (err instanceof HttpError) return { success: false, error: err.message } satisfies ConnectionTestReply;
    throw err;
  }
}

/** Runs a tool; resolves with the value sent as `result.content[0].text` (JSON) */
export async function callTool(
  deps: SocketToolDeps,
  caller: ToolCaller,
  name: SocketToolName,
  args: unknown,
): Promise<unknown> {
  switch (name) {
    case 'test_binance_connection': {
      const a = parseArgs(TestConnectionArgsSchema, name, args);
      // Through the vault and the exchange router like every keyed call: `testnet: true` tests the keys on the
      // testnet environment's host whatever the user is on; otherwise on the user's current environment's
      return asReply(() =>
        deps.credentials.validate(
          caller.userId,
          { api_key: a.api_key, secret_key: a.secret_key, region: 'global' },
          a.testnet ? 'testnet' : undefined,
        ),
      );
    }
    case 'get_account_balance': {
      parseArgs(NoArgsSchema, name, args);
      return asReply(async () => {
        await deps.credentials.get(caller.userId); // "No Binance credentials stored…" when there are none
        return deps.credentials.testConnection(caller.userId, null);
      });
    }
    case 'get_server_status': {
      parseArgs(NoArgsSchema, name, args);
      return { success: true, data: deps.status() };
    }
    case 'list_agents': {
      parseArgs(NoArgsSchema, name, args);
      return asData(() => deps.agents.list(caller.userId));
    }
    case 'get_agent_status': {
      const a = parseArgs(AgentArgsSchema, name, args);
      return asData(() => deps.agents.status(caller.userId, a.agent_id));
    }
    case 'get_agent_decisions': {
      const a = parseArgs(AgentDecisionsArgsSchema, name, args);
      return asData(() =>
        deps.agents.decisions(caller.userId, a.agent_id, { limit: a.limit, before: a.before }),
      );
    }
  }
}
