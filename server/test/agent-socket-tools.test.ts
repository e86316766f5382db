import { randomUUID } from 'node:crypto';
import { AgentDecisionSummarySchema, AgentStatusSchema } from '@kestrel/contracts/agents';
import { BotSchema } from '@kestrel/contracts/bots';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBotRow } from './bot-rows';
import { buildTestApp, openTestDatabase, signUp, type TestApp, type TestDatabase } from './helper';
import { listenWs, TestSocket, wsUrl } from './socket-helper';

/**
 * The agents' read-only tools on the live socket (issue 18): list_agents, get_agent_status, get_agent_decisions,
 * answered for the socket's own user only (another user's agent reads exactly like an unknown one)
 */
describe('agent tools on the live socket', () => {
  let tdb: TestDatabase;
  let t: TestApp;
  let base: string;
  const sockets: TestSocket[] = [];
  let owner: { token: string; userId: string };
  let agentId: string;
  let botId: string;
  let foreignId: string;

  const open = async (token: string) => {
    const s = await TestSocket.open(wsUrl(base, token));
    sockets.push(s);
    await s.request('tools/list');
    return s;
  };

  const insertBot = (userId: string, kind: 'bot' | 'agent') =>
    insertBotRow(tdb.db, userId, kind, t.clock.now());

  beforeAll(async () => {
    tdb = await openTestDatabase('pglite');
    t = await buildTestApp(tdb.db);
    base = await listenWs(t);
    const auth = await signUp(t);
    owner = { token: auth.access_token, userId: auth.user.id };
    agentId = await insertBot(owner.userId, 'agent');
    botId = await insertBot(owner.userId, 'bot');
    foreignId = await insertBot((await signUp(t)).user.id, 'agent');
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await t?.app.close();
    await tdb?.cleanup();
  });

  it('list_agents answers the user’s agents only (no plain bots, nobody else’s)', async () => {
    const s = await open(owner.token);
    const reply = (await s.tool('list_agents')) as { success: boolean; data: unknown[] };
    expect(reply.success).toBe(true);
    const agents = reply.data.map((a) => BotSchema.parse(a));
    expect(agents.map((a) => a.id)).toEqual([agentId]);
    expect(agents.map((a) => a.id)).not.toContain(botId);
  });

  it('get_agent_status answers the agent’s status as GET /agents/{id}/agent does', async () => {
    const s = await open(owner.token);
    const reply = (await s.tool('get_agent_status', { agent_id: agentId })) as {
      success: boolean;
      data: unknown;
    };
    expect(reply.success).toBe(true);
    const status = AgentStatusSchema.parse(reply.data);
    expect(status.bot.id).toBe(agentId);
  });

  it('get_agent_decisions answers the decisions newest first (none yet: an empty list)', async () => {
    const s = await open(owner.token);
    const reply = (await s.tool('get_agent_decisions', { agent_id: agentId, limit: 5 })) as {
      success: boolean;
      data: unknown[];
    };
    expect(reply.success).toBe(true);
    expect(reply.data.map((d) => AgentDecisionSummarySchema.parse(d))).toEqual([]);
  });

  it('another user’s agent and an unknown id are the same refusal; bad arguments are -32602', async () => {
    const s = await open(owner.token);
    const foreign = (await s.tool('get_agent_status', { agent_id: foreignId })) as {
      success: boolean;
      error: string;
    };
    const unknown = (await s.tool('get_agent_status', { agent_id: randomUUID() })) as {
      success: boolean;
      error: string;
    };
    expect(foreign.success).toBe(false);
    expect(foreign).toEqual(unknown);
    const decisions = (await s.tool('get_agent_decisions', { agent_id: foreignId })) as { success: boolean };
    expect(decisions.success).toBe(false);

    const bad = await s.request('tools/call', { name: 'get_agent_status', arguments: { agent_id: 'x' } });
    expect(bad.error).toEqual({
      code: -32602,
      message: 'Invalid arguments for get_agent_status: agent_id: agent_id must be an agent id (a UUID)',
    });
    const tooMany = await s.request('tools/call', {
      name: 'get_agent_decisions',
      arguments: { agent_id: agentId, limit: 1000 },
    });
    expect(tooMany.error?.message).toBe(
      'Invalid arguments for get_agent_decisions: limit: limit must be at most 100',
    );
  });
});
