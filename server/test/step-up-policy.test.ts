import { STEP_UP_WINDOW_MS } from '@kestrel/contracts/account';
import { describe, expect, it } from 'vitest';
import { STEP_UP_POLICY } from '../src/routes/step-up-policy';
import { insertBotRow } from './bot-rows';
import { bearer, PASSWORD } from './helper';
import { useTestServer } from './suite-fixtures';

/**
 * Step-up wherever risk grows (issue "Reliability and security, round three", item 3): the table of
 * `routes/step-up-policy.ts` decides every state-changing call of the OpenAPI document, and each call that lets risk
 * grow answers 403 STEP_UP_REQUIRED once the password is older than 5 minutes, while tightening goes through.
 */
describe('step-up policy', () => {
  const t = useTestServer();

  it('decides every state-changing call of the API, and names no call that is gone', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((m) => !['get', 'head', 'options'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations.filter((op) => !(op in STEP_UP_POLICY))).toEqual([]);
    expect(Object.keys(STEP_UP_POLICY).filter((op) => !operations.includes(op))).toEqual([]);
  });

  it('asks the password again where risk grows, and never where it shrinks', async () => {
    const { auth } = await t.connectedUser();
    const call = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
      t.request({ method, url, headers: bearer(auth.access_token), ...(payload ? { payload } : {}) });
    const limits = (maxLeverage: number | null) =>
      call('PUT', '/api/v1/risk/limits', {
        maxLeverage,
        dailyLossLimit: null,
        maxDrawdownPercent: null,
        maxPositionNotional: null,
      });
    const bot = async (name: string, mode: 'live' | 'paper') => {
      const r = await call('POST', '/api/v1/agents/', {
        name,
        strategy: 'grid',
        params: { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.003 },
        symbol: 'BTCUSDT',
        interval: '1m',
        leverage: 5,
        budget: 500,
        mode,
      });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data.id as string;
    };
    const live = await bot('Live grid', 'live');
    const paper = await bot('Paper grid', 'paper');
    const agentId = await insertBotRow(t.app.db, auth.user.id, 'agent', t.clock.now(), { name: 'Agent' });
    // Tightening a limit that was none: no password
    expect((await limits(5)).statusCode).toBe(200);

    // The password given at sign-up is more than 5 minutes old now
    t.clock.advance(STEP_UP_WINDOW_MS + 1_000);
    const refused: [string, Promise<{ statusCode: number; json(): { code?: string } }>][] = [
      ['raising a limit', limits(10)],
      ['removing a limit', limits(null)],
      [
        'raising the leverage',
        call('POST', '/api/futures/leverage/set', { symbol: 'BTCUSDT', leverage: 50 }),
      ],
      [
        'taking margin out of a position',
        call('POST', '/api/futures/positions/margin', {
          symbol: 'BTCUSDT',
          positionSide: 'BOTH',
          amount: '1',
          action: 'remove',
        }),
      ],
      [
        'a new webhook',
        call('POST', '/api/v1/notifications/webhooks', {
          url: 'https://example.com/h',
          events: ['kill_switch'],
        }),
      ],
      ['changing a live bot', call('PATCH', `/api/v1/agents/${live}`, { budget: 600 })],
      ['making a bot live', call('PATCH', `/api/v1/agents/${paper}`, { mode: 'live' })],
      ['cloning a live bot', call('POST', `/api/v1/agents/${live}/clone`, {})],
      ['starting a live bot', call('POST', `/api/v1/agents/${live}/start`)],
      ['a live bot’s signal URL', call('POST', `/api/v1/agents/${live}/signal-hook`)],
      [
        'promoting an agent to a live stage',
        call('POST', `/api/v1/agents/${agentId}/stage`, { stage: 'live_approval' }),
      ],
    ];
    for (const [what, answer] of refused) {
      const r = await answer;
      expect([what, r.statusCode, r.json().code]).toEqual([what, 403, 'STEP_UP_REQUIRED']);
    }

    const allowed: [string, Promise<{ statusCode: number; body: string }>][] = [
      ['tightening a limit', limits(3)],
      [
        'lowering the leverage',
        call('POST', '/api/futures/leverage/set', { symbol: 'BTCUSDT', leverage: 2 }),
      ],
      ['renaming a live bot', call('PATCH', `/api/v1/agents/${live}`, { name: 'Live grid, renamed' })],
      ['changing a paper bot', call('PATCH', `/api/v1/agents/${paper}`, { budget: 700 })],
      ['cloning a paper bot', call('POST', `/api/v1/agents/${paper}/clone`, {})],
      ['the kill switch', call('POST', '/api/v1/risk/kill-switch', {})],
    ];
    for (const [what, answer] of allowed) {
      const r = await answer;
      expect([what, r.statusCode < 300, r.body]).toEqual([what, true, r.body]);
    }

    // The password again: the same calls go through
    const stepUp = await call('POST', '/api/v1/account/step-up', { password: PASSWORD });
    expect(stepUp.statusCode).toBe(200);
    expect((await limits(null)).statusCode).toBe(200);
    expect((await call('PATCH', `/api/v1/agents/${live}`, { budget: 600 })).statusCode).toBe(200);
  });
});
