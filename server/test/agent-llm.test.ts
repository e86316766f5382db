import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentLlmExchangesResponseSchema, AgentLlmStatusResponseSchema } from '@kestrel/contracts/agents';
import type { AgentDecision } from '@kestrel/engine';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LlmService } from '../src/trading/agents/llm-reviewer/llm-service';
import { insertBotRow } from './bot-rows';
import { bearer, buildTestApp, openTestDatabase, signUp, type TestApp, type TestDatabase } from './helper';
import { toolCallCompletion } from './llm-stub';
import { acrossVaultKeyRotation } from './vault-key-rotation';

/**
 * The agents' optional LLM reviewer (issue 18) against a node:http stub of `/v1/chat/completions` that plays a
 * scripted answer per request: a tool call, malformed JSON, an unknown tool, 429, 500, a timeout. Every failure must
 * veto the entry with its reason, every exchange is stored whole, caps stop calls before they are sent, exits are
 * never reviewed, and the key never shows in an answer or a log line
 */

const API_KEY = 'sk-test-VERY-SECRET-0123456789abcdef';

type Script = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** The stub model server: each request takes the next script (default: approve) */
class StubModel {
  readonly requests: { auth: string | undefined; body: Record<string, unknown> }[] = [];
  private scripts: Script[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        this.requests.push({ auth: req.headers.authorization, body: JSON.parse(body) });
        (
          this.scripts.shift() ??
          toolCall({ verdict: 'approve', sizeMultiplier: 1, rationale: 'fine', citedFeatures: [] })
        )(req, body, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  script(...scripts: Script[]): void {
    this.scripts.push(...scripts);
  }

  reset(): void {
    this.requests.length = 0;
    this.scripts = [];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const json = (res: ServerResponse, status: number, payload: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
};

/** A chat completion whose message calls `name` with `args` (a string is sent as is: malformed JSON) */
function completion(
  name: string,
  args: unknown,
  usage = { prompt_tokens: 300, completion_tokens: 40 },
): Script {
  return (_req, _body, res) => json(res, 200, toolCallCompletion(name, args, usage));
}
const toolCall = (args: unknown, usage?: { prompt_tokens: number; completion_tokens: number }) =>
  completion('submit_review', args, usage);
const status =
  (code: number, payload: unknown): Script =>
  (_req, _body, res) =>
    json(res, code, payload);
/** Never answers (the reviewer's timeout must end the wait) */
const hang: Script = () => {};

function decision(action: AgentDecision['action'] = 'enter_long'): AgentDecision {
  return {
    barTime: Date.UTC(2026, 0, 15, 11, 59),
    action,
    sizeFraction: action.startsWith('enter') ? 0.2 : 0,
    stopPct: action.startsWith('enter') ? 0.01 : null,
    reasonCodes: action === 'exit' ? ['exit_signal'] : ['signal_long'],
    modelId: 'model-1',
    modelAgeHours: 2,
    pUp: 0.71,
    pDown: 0.1,
    threshold: 0.6,
    expectedEdge: 0.004,
    dissimilarity: 0.4,
    predictionZ: 1.9,
    contributions: [
      { id: 'ret_4', value: 0.01, scaled: 1.2, coefficient: 0.8, contribution: 0.96, available: true },
      { id: 'rsi_14', value: 61, scaled: 0.5, coefficient: 0.3, contribution: 0.15, available: true },
      { id: 'funding', value: 0, scaled: 0, coefficient: 0.2, contribution: 0, available: false },
    ],
    gates: [{ gate: 'dissimilarity', passed: true, value: 0.4, limit: 1 }],
    snapshotHash: 'abc',
  };
}

describe('agent LLM reviewer', () => {
  let db: TestDatabase;
  let t: TestApp;
  const stub = new StubModel();
  let token: string;
  let userId: string;
  let agentId: string;

  const insertBot = (owner: string, kind: 'bot' | 'agent') => insertBotRow(db.db, owner, kind, t.clock.now());

  const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object, as = token) =>
    t.request({ method, url, headers: bearer(as), ...(payload ? { payload } : {}) });

  const settings = (overrides: Record<string, unknown> = {}) => ({
    baseUrl: stub.url,
    model: 'stub-model',
    apiKey: API_KEY,
    dailyCallCap: 50,
    dailyTokenCap: 100_000,
    timeoutMs: 1_000,
    promptPricePerMillion: 2,
    completionPricePerMillion: 8,
    ...overrides,
  });

  const review = (action: AgentDecision['action'] = 'enter_long') =>
    t.app.agentReviewer.review({
      userId,
      agentId,
      decision: decision(action),
      context: { symbol: 'BTCUSDT', position: { qty: 0 } },
    });

  beforeAll(async () => {
    await stub.start();
    db = await openTestDatabase();
    t = await buildTestApp(db.db, {}, { KESTREL_LLM_ALLOW_PRIVATE: '1' });
    const auth = await signUp(t);
    token = auth.access_token;
    userId = auth.user.id;
    agentId = await insertBot(userId, 'agent');
  });
  afterAll(async () => {
    await t?.app.close();
    await db?.cleanup();
    await stub.close();
  });
  beforeEach(async () => {
    stub.reset();
    await call('PUT', `/api/v1/agents/${agentId}/llm`, settings());
  });

  it('answers null and sends nothing for an agent without an LLM, and for exits and holds', async () => {
    const plain = await insertBot(userId, 'agent');
    expect(
      await t.app.agentReviewer.review({ userId, agentId: plain, decision: decision(), context: {} }),
    ).toBeNull();
    const res = await call('GET', `/api/v1/agents/${plain}/llm`);
    expect(res.statusCode).toBe(200);
    expect(AgentLlmStatusResponseSchema.parse(res.json()).data.settings).toBeNull();

    expect(await review('exit')).toBeNull();
    expect(await review('hold')).toBeNull();
    expect(stub.requests).toHaveLength(0);
  });

  it('approves through a submit_review tool call: temperature 0, a seed, the key sent; the exchange kept whole', async () => {
    stub.script(
      toolCall({
        verdict: 'approve',
        sizeMultiplier: 0.3,
        rationale: 'momentum agrees',
        citedFeatures: ['ret_4', 'made_up'],
      }),
    );
    const r = await review();
    expect(r).toMatchObject({
      verdict: 'approve',
      sizeMultiplier: 1,
      rationale: 'momentum agrees',
      citedFeatures: ['ret_4'],
      model: 'stub-model',
      promptTokens: 300,
      completionTokens: 40,
      error: null,
    });
    expect(stub.requests).toHaveLength(1);
    const sent = stub.requests[0];
    expect(sent?.auth).toBe(`Bearer ${API_KEY}`);
    expect(sent?.body).toMatchObject({ model: 'stub-model', temperature: 0, seed: 18 });
    expect(JSON.stringify(sent?.body.tools)).toContain('"name":"submit_review"');

    const list = AgentLlmExchangesResponseSchema.parse(
      (await call('GET', `/api/v1/agents/${agentId}/llm/exchanges?limit=1`)).json(),
    ).data;
    expect(list[0]).toMatchObject({ id: r?.exchangeId, called: true, verdict: 'approve', error: null });
    expect(JSON.stringify(list[0]?.request)).toContain('enter_long');
    expect(JSON.stringify(list[0]?.response)).toContain('momentum agrees');
  });

  it('reduce shrinks the size by the multiplier; a reduce without a multiplier below 1 is a veto', async () => {
    stub.script(
      toolCall({
        verdict: 'reduce',
        sizeMultiplier: 0.5,
        rationale: 'funding is rich',
        citedFeatures: ['funding'],
      }),
      toolCall({ verdict: 'reduce', sizeMultiplier: 1, rationale: 'no change', citedFeatures: [] }),
    );
    expect(await review()).toMatchObject({
      verdict: 'reduce',
      sizeMultiplier: 0.5,
      citedFeatures: ['funding'],
    });
    const invalid = await review();
    expect(invalid).toMatchObject({ verdict: 'veto', sizeMultiplier: 0 });
    expect(invalid?.error).toMatch(/sizeMultiplier/);
  });

  it.each([
    ['malformed JSON arguments', completion('submit_review', '{"verdict": "approve", '), /not valid JSON/],
    ['an unknown tool', completion('place_order', { side: 'BUY' }), /unknown tool "place_order"/],
    ['a 429', status(429, { error: { message: 'Rate limit reached', type: 'requests' } }), /HTTP 429/],
    ['a 500', status(500, { error: { message: 'boom' } }), /HTTP 500/],
    ['a timeout', hang, /did not answer within 1000 ms/],
    [
      'an answer without a tool call',
      status(200, {
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: 'stub-model',
        choices: [
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Looks good!' } },
        ],
      }),
      /without calling submit_review/,
    ],
  ])('%s vetoes the entry with its reason, and is stored', async (_name, script, reason) => {
    stub.script(script);
    const r = await review();
    expect(r?.verdict).toBe('veto');
    expect(r?.sizeMultiplier).toBe(0);
    expect(r?.error).toMatch(reason);
    expect(stub.requests).toHaveLength(1);
    const list = AgentLlmExchangesResponseSchema.parse(
      (await call('GET', `/api/v1/agents/${agentId}/llm/exchanges?limit=1`)).json(),
    ).data;
    expect(list[0]).toMatchObject({ id: r?.exchangeId, called: true, verdict: 'veto', error: r?.error });
  });

  it('a body that never ends times out too, and a server that is down vetoes with the reason', async () => {
    stub.script((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"chatcmpl-1",');
    });
    expect((await review())?.error).toMatch(/did not answer within 1000 ms/);

    const down = await insertBot(userId, 'agent');
    const closed = new URL(stub.url);
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    await call(
      'PUT',
      `/api/v1/agents/${down}/llm`,
      settings({ baseUrl: `http://${closed.hostname}:${port}/v1` }),
    );
    const r = await t.app.agentReviewer.review({ userId, agentId: down, decision: decision(), context: {} });
    expect(r).toMatchObject({ verdict: 'veto', sizeMultiplier: 0 });
    expect(r?.error).toMatch(/could not be reached \(ECONNREFUSED\)/);
  });

  it('connects to the address the SSRF check resolved, not to a second lookup of the name', async () => {
    const port = new URL(stub.url).port;
    // A name no DNS knows: only the checked answer (the resolver's) can reach the stub
    const service = new LlmService(db.db, t.keyring, t.clock, async () => {}, {
      allowPrivate: true,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const pinned = await insertBot(userId, 'agent');
    await service.put(userId, pinned, {
      ...settings({ baseUrl: `http://llm.invalid:${port}/v1` }),
      apiKey: API_KEY,
    } as Parameters<LlmService['put']>[2]);
    const r = await service.review({ userId, agentId: pinned, decision: decision(), context: {} });
    expect(r?.error).toBeNull();
    expect(stub.requests).toHaveLength(1);
  });

  it('stops calling at the daily call cap (a veto, nothing sent) until the next UTC day', async () => {
    const capped = await insertBot(userId, 'agent');
    await call('PUT', `/api/v1/agents/${capped}/llm`, settings({ dailyCallCap: 2 }));
    const ask = () =>
      t.app.agentReviewer.review({ userId, agentId: capped, decision: decision(), context: {} });
    stub.script(status(500, {}));
    expect((await ask())?.verdict).toBe('veto');
    expect((await ask())?.verdict).toBe('approve');
    const third = await ask();
    expect(third).toMatchObject({ verdict: 'veto', model: '', promptTokens: 0 });
    expect(third?.error).toMatch(/daily call cap reached \(2 of 2 calls/);
    expect(stub.requests).toHaveLength(2);

    const usage = AgentLlmStatusResponseSchema.parse(
      (await call('GET', `/api/v1/agents/${capped}/llm`)).json(),
    ).data.usage;
    expect(usage).toMatchObject({
      day: '2026-01-15',
      calls: 2,
      promptTokens: 300,
      completionTokens: 40,
      capped: 1,
    });
    // 300 × 2 + 40 × 8 per million
    expect(usage.spend).toBeCloseTo(0.00092, 10);

    t.clock.advance(12 * 3_600_000);
    expect((await ask())?.verdict).toBe('approve');
    expect(stub.requests).toHaveLength(3);
    t.clock.advance(-12 * 3_600_000);
  });

  it('stops calling once the day’s tokens reach the token cap', async () => {
    const capped = await insertBot(userId, 'agent');
    await call('PUT', `/api/v1/agents/${capped}/llm`, settings({ dailyTokenCap: 500 }));
    const ask = () =>
      t.app.agentReviewer.review({ userId, agentId: capped, decision: decision(), context: {} });
    stub.script(
      toolCall(
        { verdict: 'approve', sizeMultiplier: 1, rationale: 'ok', citedFeatures: [] },
        {
          prompt_tokens: 450,
          completion_tokens: 60,
        },
      ),
    );
    expect((await ask())?.verdict).toBe('approve');
    const refused = await ask();
    expect(refused?.error).toMatch(/daily token cap reached \(510 of 500 tokens/);
    expect(stub.requests).toHaveLength(1);
  });

  it('never shows the key: answers mask it, logs and stored exchanges never hold it, even when echoed', async () => {
    // A proxy that echoes the Authorization header back in its error body
    stub.script((req, _body, res) =>
      json(res, 401, { error: { message: `bad key ${req.headers.authorization}` } }),
    );
    const r = await review();
    expect(r?.error).toMatch(/HTTP 401 \(the key was refused\)/);

    const got = AgentLlmStatusResponseSchema.parse(
      (await call('GET', `/api/v1/agents/${agentId}/llm`)).json(),
    ).data;
    expect(got.settings?.apiKeyMasked).toBe('sk-t********cdef');
    const exchanges = await call('GET', `/api/v1/agents/${agentId}/llm/exchanges`);
    expect(exchanges.body).toContain('[redacted]');
    for (const res of t.responses) expect(res.body).not.toContain(API_KEY);
    expect(t.logs.join('\n')).not.toContain(API_KEY);
    expect(t.logs.join('\n')).toContain('agent LLM review failed');
    const rows = await db.db.query<{ ciphertext: Uint8Array }>(
      'SELECT ciphertext FROM agent_llm_settings WHERE bot_id = $1',
      [agentId],
    );
    expect(Buffer.from(rows[0]?.ciphertext ?? []).toString('latin1')).not.toContain(API_KEY);
  });

  it('keeps the key when apiKey is omitted, removes it with null; DELETE turns the reviewer off', async () => {
    const kept = await call(
      'PUT',
      `/api/v1/agents/${agentId}/llm`,
      settings({ apiKey: undefined, model: 'm2' }),
    );
    expect(kept.json().data.settings).toMatchObject({ model: 'm2', apiKeyMasked: 'sk-t********cdef' });
    await review();
    expect(stub.requests.at(-1)?.auth).toBe(`Bearer ${API_KEY}`);

    const none = await call('PUT', `/api/v1/agents/${agentId}/llm`, settings({ apiKey: null }));
    expect(none.json().data.settings.apiKeyMasked).toBeNull();
    await review();
    expect(stub.requests.at(-1)?.auth).toBe('Bearer none');

    expect((await call('DELETE', `/api/v1/agents/${agentId}/llm`)).statusCode).toBe(200);
    expect(await review()).toBeNull();
    expect((await call('DELETE', `/api/v1/agents/${agentId}/llm`)).statusCode).toBe(404);
    // The exchanges outlive the settings
    const list = (await call('GET', `/api/v1/agents/${agentId}/llm/exchanges`)).json().data;
    expect(list.length).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown agent, another user’s agent and a bot that is not an agent', async () => {
    const other = await signUp(t);
    const foreign = await insertBot(other.user.id, 'agent');
    const bot = await insertBot(userId, 'bot');
    for (const id of [randomUUID(), foreign, bot]) {
      for (const [method, url, payload] of [
        ['GET', `/api/v1/agents/${id}/llm`, undefined],
        ['PUT', `/api/v1/agents/${id}/llm`, settings()],
        ['DELETE', `/api/v1/agents/${id}/llm`, undefined],
        ['GET', `/api/v1/agents/${id}/llm/exchanges`, undefined],
      ] as const) {
        const res = await call(method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    // The owner's exchanges are not the other user's either
    expect(
      (await call('GET', `/api/v1/agents/${agentId}/llm/exchanges`, undefined, other.access_token))
        .statusCode,
    ).toBe(404);
  });

  it('documents the four calls in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/api/v1/agents/{id}/llm'] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(doc.paths['/api/v1/agents/{id}/llm/exchanges'] ?? {})).toEqual(['get']);
  });

  it('refuses bad settings with the field and the rule', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ baseUrl: 'ftp://example.com' }, /baseUrl must be an http/],
      [{ baseUrl: 'https://user:pw@example.com/v1' }, /without credentials/],
      [{ model: ' ' }, /model is required/],
      [{ apiKey: '' }, /apiKey must not be empty/],
      [{ dailyCallCap: 0 }, /dailyCallCap must be at least 1/],
      [{ timeoutMs: 500 }, /timeoutMs must be at least 1000/],
    ];
    for (const [overrides, message] of cases) {
      const res = await call('PUT', `/api/v1/agents/${agentId}/llm`, settings(overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(message);
    }
  });

  it('refuses a private base URL unless the operator allows it (KESTREL_LLM_ALLOW_PRIVATE)', async () => {
    const strict = await buildTestApp(db.db);
    try {
      const auth = await signUp(strict);
      const id = await insertBotRow(db.db, auth.user.id, 'agent', strict.clock.now(), { name: 'strict' });
      const res = await strict.request({
        method: 'PUT',
        url: `/api/v1/agents/${id}/llm`,
        headers: bearer(auth.access_token),
        payload: settings(),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'LLM_URL_REFUSED' });
      expect(res.json().detail).toMatch(/127\.0\.0\.1.*KESTREL_LLM_ALLOW_PRIVATE=1/);
    } finally {
      await strict.app.close();
    }
  });

  it('re-wraps the stored key with the vault-key rotation: after it the same key is sent', async () => {
    await acrossVaultKeyRotation(
      { KESTREL_LLM_ALLOW_PRIVATE: '1' },
      async (before) => {
        const auth = await signUp(before);
        const id = await insertBotRow(before.app.db, auth.user.id, 'agent', before.clock.now(), {
          name: 'rotated',
        });
        const put = await before.request({
          method: 'PUT',
          url: `/api/v1/agents/${id}/llm`,
          headers: bearer(auth.access_token),
          payload: settings(),
        });
        expect(put.statusCode).toBe(200);
        return { userId: auth.user.id, id };
      },
      async (after, { userId, id }) => {
        const r = await after.app.agentReviewer.review({
          userId,
          agentId: id,
          decision: decision(),
          context: {},
        });
        expect(r?.error).toBeNull();
        expect(stub.requests.at(-1)?.auth).toBe(`Bearer ${API_KEY}`);
      },
    );
  });
});
