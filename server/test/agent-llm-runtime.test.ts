import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentDecisionSummary, AgentLlmExchangesResponseSchema } from '@kestrel/contracts/agents';
import type { Bot } from '@kestrel/contracts/bots';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUp } from './helper';
import { toolCallCompletion } from './llm-stub';
import { useSimBots } from './sim-bots';
import { TestSocket, wsUrl } from './socket-helper';

/**
 * The reviewer inside the agent runtime, on the simulator: a paper agent with loose gates (so it proposes entries)
 * and an LLM stub that vetoes every one. Its entries are recorded as vetoed with the reviewer's verdict, nothing is
 * traded, every review is an exchange, and decisions that are not entries never reach the model
 */
describe('an agent with an LLM reviewer that vetoes', () => {
  let token: string;
  let stub: Server;
  let stubUrl: string;
  const asked: string[] = [];

  beforeAll(async () => {
    stub = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      req.on('end', () => {
        asked.push(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        const veto = {
          verdict: 'veto',
          sizeMultiplier: 0,
          rationale: 'stub vetoes everything',
          citedFeatures: [],
        };
        const usage = { prompt_tokens: 100, completion_tokens: 10 };
        res.end(JSON.stringify(toolCallCompletion('submit_review', veto, usage, 'stub')));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    stub?.closeAllConnections();
    await new Promise((resolve) => stub?.close(resolve));
  });
  // The server starts after the stub and closes before it
  const { t, advance } = useSimBots({
    historyDays: 2,
    env: { KESTREL_LLM_ALLOW_PRIVATE: '1' },
    deps: { liveStreamLingerMs: 200 },
  });
  beforeAll(async () => {
    token = (await signUp(t)).access_token;
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('records its entries as vetoed by the reviewer and trades none of them', async () => {
    const created = await call('POST', '/api/v1/agents/', {
      name: 'Reviewed agent',
      strategy: 'ml-agent',
      params: {
        horizonBars: 4,
        trainBars: 600,
        entryThreshold: 0.34,
        maxDissimilarity: 100,
        minPredictionZ: 0,
        feeRate: 0,
        slippage: 0,
        deadZone: 0,
      },
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 2,
      budget: 1000,
      mode: 'paper',
    });
    expect(created.statusCode, created.body).toBe(201);
    const agent: Bot = created.json().data;
    expect(agent.kind).toBe('agent');
    const put = await call('PUT', `/api/v1/agents/${agent.id}/llm`, {
      baseUrl: stubUrl,
      model: 'stub',
      apiKey: 'sk-runtime-test-key-123456',
      timeoutMs: 5000,
    });
    expect(put.statusCode, put.body).toBe(200);
    // The reviewer is not asked in stage backtest: paper it is
    const staged = await call('POST', `/api/v1/agents/${agent.id}/stage`, { stage: 'paper' });
    expect(staged.statusCode, staged.body).toBe(200);
    expect((await call('POST', `/api/v1/agents/${agent.id}/train`)).statusCode).toBe(202);
    await t.app.agentService.idle();
    const started = await call('POST', `/api/v1/agents/${agent.id}/start`);
    expect(started.statusCode, started.body).toBe(200);

    let decisions: AgentDecisionSummary[] = [];
    for (let bar = 0; bar < 40; bar++) {
      await advance(60_000);
      decisions = (await call('GET', `/api/v1/agents/${agent.id}/decisions?limit=100`)).json().data ?? [];
      if (decisions.some((d) => d.action === 'enter_long' || d.action === 'enter_short')) break;
    }
    // The last bar advanced may still be on its way through the agent (a loaded machine): the records settle first,
    // so the counts below and the socket's answer are read from the same, final set
    for (let previous = -1; previous !== decisions.length; ) {
      previous = decisions.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      decisions = (await call('GET', `/api/v1/agents/${agent.id}/decisions?limit=100`)).json().data ?? [];
    }
    const entries = decisions.filter((d) => d.action === 'enter_long' || d.action === 'enter_short');
    expect(entries.length, JSON.stringify(decisions.slice(0, 3))).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry.reviewVerdict).toBe('veto');
      expect(entry.outcome).toBe('vetoed');
    }
    for (const other of decisions.filter((d) => !entries.includes(d))) expect(other.reviewVerdict).toBeNull();

    const exchanges = AgentLlmExchangesResponseSchema.parse(
      (await call('GET', `/api/v1/agents/${agent.id}/llm/exchanges?limit=200`)).json(),
    ).data;
    expect(exchanges).toHaveLength(entries.length);
    expect(asked).toHaveLength(entries.length);
    expect(exchanges.every((e) => e.verdict === 'veto' && e.called && e.error === null)).toBe(true);
    const status = (await call('GET', `/api/v1/agents/${agent.id}/status`)).json().data;
    expect(status.positionQty).toBe(0);

    // The socket's read-only tools answer the same records as the HTTP calls
    const base = (await t.listen()).replace(/^http/, 'ws');
    const socket = await TestSocket.open(wsUrl(`${base}/ws`, token));
    try {
      const listed = (await socket.tool('get_agent_decisions', { agent_id: agent.id, limit: 100 })) as {
        success: boolean;
        data: AgentDecisionSummary[];
      };
      expect(listed.success).toBe(true);
      const now = (await call('GET', `/api/v1/agents/${agent.id}/decisions?limit=100`)).json().data;
      expect(listed.data).toEqual(now);
      const agentStatus = (await socket.tool('get_agent_status', { agent_id: agent.id })) as {
        data: { lastDecision: { id: string } | null };
      };
      expect(agentStatus.data.lastDecision?.id).toBe(now[0]?.id);
    } finally {
      await socket.close();
    }
    await call('POST', `/api/v1/agents/${agent.id}/stop`);
  });
});
