/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
import type { Bot } from '@kestrel/contracts/bots';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../../features/bots/api/create-bot';
import { renderAt, type ServerPage, startServerPage } from '../../../test/server-page';
import AgentPage from '../agent';

let page: ServerPage;
beforeAll(async () => {
  page = await startServerPage('agent-approvals@example.test');
}, 60_000);
afterAll(() => page?.close());

const MINUTE = 60_000;

/**
 * A queued proposal as the runtime leaves it in stage live_approval: its decision record and the approval row.
 * Written in SQL: reaching live_approval through its gates needs walk-forward evidence that passes and 24 paper
 * decisions (the server's tests cover that path); this test is about what the owner sees and clicks
 */
async function propose(agent: Bot, barTime: number, expiresInMs: number): Promise<string> {
  const db = page.server.database.db;
  const userId = (
    await db.query<{ user_id: string }>('SELECT user_id FROM bots WHERE id = $1', [agent.id])
  )[0]?.user_id;
  const now = Date.now();
  const decision = {
    barTime,
    action: 'enter_long',
    sizeFraction: 0.25,
    stopPct: 0.012,
    reasonCodes: ['signal_long'],
    modelId: 'm1',
    modelAgeHours: 1,
    pUp: 0.64,
    pDown: 0.12,
    threshold: 0.55,
    expectedEdge: 0.003,
    dissimilarity: 0.4,
    predictionZ: 1.6,
    contributions: [],
    gates: [],
    snapshotHash: 'h',
  };
  const record = {
    id: '0',
    agentId: agent.id,
    barTime,
    time: now,
    action: 'enter_long',
    outcome: 'queued',
    reasonCodes: ['signal_long'],
    sizeFraction: 0.25,
    pUp: 0.64,
    pDown: 0.12,
    threshold: 0.55,
    modelId: 'm1',
    stage: 'live_approval',
    reviewVerdict: null,
    note: 'Waiting for your approval',
    decision,
    review: null,
    guard: null,
    orders: [],
    fills: [],
    positionQty: 0,
    price: 50_000,
  };
  const execution = { action: 'enter_long', sizeFraction: 0.25, stopPct: 0.012 };
  const inserted = await db.query<{ id: string }>(
    `INSERT INTO agent_decisions (bot_id, user_id, bar_time, created_at, stage, action, outcome, note, executed, record)
     VALUES ($1, $2, $3, $4, 'live_approval', 'enter_long', 'queued', 'Waiting for your approval', NULL, $5)
     RETURNING id::text AS id`,
    [agent.id, userId, barTime, new Date(now), JSON.stringify(record)],
  );
  const rows = await db.query<{ id: string }>(
    `INSERT INTO agent_approvals (bot_id, decision_id, action, size_fraction, stop_pct, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::text AS id`,
    [
      agent.id,
      inserted[0]?.id,
      execution.action,
      execution.sizeFraction,
      execution.stopPct,
      new Date(now),
      new Date(now + expiresInMs),
    ],
  );
  return rows[0]?.id ?? '';
}

describe('the approval queue of an agent in stage Live with approval', () => {
  it('counts each proposal down, takes an approve and a reject, and shows one that expired unanswered', async () => {
    const agent = await createBot(page.runtime.api, {
      name: 'Proposing agent',
      strategy: 'ml-agent',
      params: { trainBars: 300 },
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 2,
      budget: 1000,
      mode: 'paper',
    });
    await page.server.database.db.query(
      `INSERT INTO agent_state (bot_id, stage, updated_at) VALUES ($1, 'live_approval', now())
       ON CONFLICT (bot_id) DO UPDATE SET stage = 'live_approval'`,
      [agent.id],
    );
    const bar = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
    const approveId = await propose(agent, bar, 15 * MINUTE);
    const rejectId = await propose(agent, bar + MINUTE, 15 * MINUTE);
    const expiringId = await propose(agent, bar + 2 * MINUTE, 4_000);

    const { user } = renderAt(page.runtime, `/kestrel/${agent.id}`, { '/kestrel/:agentId': AgentPage });
    const queue = await screen.findByRole('region', { name: 'Approval queue' }, { timeout: 15_000 });
    const proposals = await within(queue).findByRole('list', { name: 'Proposals' });
    const item = (id: string) => {
      const expires = [...proposals.querySelectorAll('li')];
      // Newest first: the list order is the server's; pick by what each row says
      return expires.find((li) => li.getAttribute('data-approval-id') === id) as HTMLElement;
    };
    await waitFor(() => expect(proposals.querySelectorAll('li')).toHaveLength(3));
    // Each pending one counts down to its time limit
    for (const li of proposals.querySelectorAll('li')) {
      expect(li.textContent).toMatch(/^Enter long · 25\.0% of budget/);
      expect(li.getAttribute('data-approval-state')).toBe('pending');
    }
    expect(item(approveId).textContent).toMatch(/expires in 1[45]:\d\d/);

    await user.click(within(item(approveId)).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(item(approveId).getAttribute('data-approval-state')).toBe('approved'), {
      timeout: 10_000,
    });
    expect(item(approveId).textContent).toContain('Approved by you: carried out at the next bar close');
    expect(within(item(approveId)).queryByRole('button', { name: 'Approve' })).toBeNull();

    // The queue's buttons stay disabled until the approval's command has settled, as the owner sees them
    const reject = within(item(rejectId)).getByRole('button', { name: 'Reject' }) as HTMLButtonElement;
    await waitFor(() => expect(reject.disabled).toBe(false), { timeout: 10_000 });
    await user.click(reject);
    await waitFor(() => expect(item(rejectId).getAttribute('data-approval-state')).toBe('rejected'), {
      timeout: 10_000,
    });
    expect(item(rejectId).textContent).toContain('Rejected by you');

    // The short one runs out: the page stops offering it at once, then the server's record says so
    await waitFor(() => expect(item(expiringId).textContent).toContain('expired'), { timeout: 10_000 });
    expect(within(item(expiringId)).queryByRole('button', { name: 'Approve' })).toBeNull();
    await waitFor(() => expect(item(expiringId).getAttribute('data-approval-state')).toBe('expired'), {
      timeout: 20_000,
    });
    expect(item(expiringId).textContent).toContain('Expired unanswered: nothing was sent');
    // The record of the expired proposal says what became of it
    const stored = await page.server.database.db.query<{ outcome: string }>(
      `SELECT d.outcome FROM agent_decisions d JOIN agent_approvals a ON a.decision_id = d.id WHERE a.id = $1`,
      [expiringId],
    );
    expect(stored[0]?.outcome).toBe('expired');
  }, 90_000);
});
