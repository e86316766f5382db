/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
import { type AgentDecisionSummary, AgentDecisionsResponseSchema } from '@kestrel/contracts/agents';
import type { Bot, CreateBotRequestInput } from '@kestrel/contracts/bots';
import { agentEvidence, trainAgentModel } from '@kestrel/engine';
import { unwrap } from '@kestrel/shared-runtime';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../../features/bots/api/create-bot';
import { renderAt, type ServerPage, startServerPage } from '../../../test/server-page';
import ActiveBotsPage from '../active-bots';
import AgentPage from '../agent';

const MINUTE = 60_000;
/**
 * The simulator's clock, moved only by the test (`closeBar`). Market time starts near the wall clock (the app's
 * clock), so the model's age reads true
 */
const simClock = {
  time: Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE,
  now(): number {
    return this.time;
  },
  advance(ms: number): void {
    this.time += ms;
  },
};

let page: ServerPage;
beforeAll(async () => {
  page = await startServerPage('agent-page@example.test', {
    simulator: { clock: simClock },
    // The reviewer's address in the LLM test is on this machine (nothing listens there: it is never called)
    env: { KESTREL_LLM_ALLOW_PRIVATE: '1' },
    // Trains in this thread: the same engine functions as the worker, without a thread per test
    deps: {
      agentTrainer: {
        train: async (input) => trainAgentModel(input),
        evidence: async (input) => agentEvidence(input),
      },
    },
  });
}, 60_000);
afterAll(() => page?.close());

const pages = { '/kestrel/:agentId': AgentPage, '/active-bots': ActiveBotsPage };

/** A stopped paper bot on BTCUSDT 1m: each test names it and its strategy */
const create = (body: Pick<CreateBotRequestInput, 'name' | 'strategy' | 'params'>): Promise<Bot> =>
  createBot(page.runtime.api, {
    symbol: 'BTCUSDT',
    interval: '1m',
    leverage: 2,
    budget: 1000,
    mode: 'paper',
    ...body,
  });
const decisions = async (id: string): Promise<AgentDecisionSummary[]> =>
  unwrap(
    await page.runtime.api.get(`/api/v1/agents/${id}/decisions`, { schema: AgentDecisionsResponseSchema }),
  ).data;

/** Moves the market to the next minute's close: the agent records one decision per closed bar */
async function closeBar(): Promise<void> {
  const to = (Math.floor(simClock.now() / MINUTE) + 1) * MINUTE + 1_000;
  while (simClock.now() < to) {
    simClock.advance(1_000);
    page.server.sim.tick();
    await new Promise((r) => setTimeout(r, 5));
  }
}

const section = (name: string) => screen.findByRole('region', { name });

describe('the AI agent page', () => {
  it('says "not found" for an unknown id, a malformed one and a plain bot, and never shows their data', async () => {
    const grid = await create({
      name: 'Plain grid',
      strategy: 'grid',
      params: { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.003 },
    });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', grid.id]) {
      renderAt(page.runtime, `/kestrel/${id}`, pages);
      expect(await screen.findByRole('heading', { level: 2, name: 'Agent not found' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Go to active bots' }).getAttribute('href')).toBe(
        '/active-bots',
      );
      expect(screen.queryByText('Plain grid')).toBeNull();
      cleanup();
    }
  });

  it('trains, runs on paper, records a decision per closed bar (holds with reasons), opens a record, kills and resets', async () => {
    const agent = await create({
      name: 'Agent BTC',
      strategy: 'ml-agent',
      params: { trainBars: 300, horizonBars: 5, retrainHours: 24, expiryHours: 48 },
    });
    const { user } = renderAt(page.runtime, `/kestrel/${agent.id}`, pages);
    expect(await screen.findByRole('heading', { level: 1, name: 'Agent BTC' })).toBeTruthy();
    const status = await section('Status');
    expect(within(status).getByText('Stopped: not trained yet')).toBeTruthy();
    expect(
      within(status).getByLabelText('Agent status').querySelector('[data-figure="stage"] dd')?.textContent,
    ).toBe('Paper');
    // Nothing decided yet, and said so
    expect(await within(await section('Decisions')).findByText(/^No decisions yet/)).toBeTruthy();
    expect(await within(await section('Evidence')).findByText(/^No evidence yet/)).toBeTruthy();
    expect(
      await within(await section('LLM reviewer')).findByText(/^None: the agent decides alone/),
    ).toBeTruthy();

    // Train now: a model appears with its age against its expiry; the evidence is computed with it
    await user.click(screen.getByRole('button', { name: 'Train now' }));
    const figures = within(status).getByLabelText('Agent status');
    await waitFor(
      () => expect(figures.querySelector('[data-figure="model-age"] dd')?.textContent).not.toBe('No model'),
      {
        timeout: 30_000,
      },
    );
    expect(figures.querySelector('[data-figure="model-age"]')?.textContent).toContain('expires at 48 h');
    // The trial registry counts the training; the evidence is read again with the new model
    const evidence = await section('Evidence');
    await waitFor(
      () =>
        expect(
          evidence.querySelector('[data-trials]')?.getAttribute('data-trials'),
          evidence.textContent ?? '',
        ).toBe('1'),
      {
        timeout: 30_000,
      },
    );
    expect(within(status).getByRole('list', { name: 'Gates for Live with approval' })).toBeTruthy();

    // Start on paper, after saying what it will do
    await user.click(screen.getByRole('button', { name: 'Start' }));
    const start = await screen.findByRole('dialog', { name: 'Start Agent BTC?' });
    expect(within(start).getByText(/on paper \(no real orders\)/)).toBeTruthy();
    await user.click(within(start).getByRole('button', { name: 'Start bot' }));
    await waitFor(
      () =>
        expect(status.querySelector('[data-agent-state]')?.getAttribute('data-agent-state')).toBe('running'),
      {
        timeout: 15_000,
      },
    );

    // Bars close: one decision each, holds included, each with its reasons
    await waitFor(
      async () => {
        await closeBar();
        expect((await decisions(agent.id)).length).toBeGreaterThanOrEqual(2);
      },
      { timeout: 30_000, interval: 50 },
    );
    const timeline = await within(await section('Decisions')).findByRole(
      'list',
      { name: 'Decisions, newest first' },
      {
        timeout: 15_000,
      },
    );
    const lines = within(timeline).getAllByRole('button');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) {
      expect(within(line).getByRole('list', { name: 'Reasons' }).children.length).toBeGreaterThan(0);
    }

    // Open one: its record shows what the model saw and how it decided
    await user.click(lines[0] as HTMLElement);
    const record = await within(await section('Decision record')).findByRole(
      'article',
      {},
      { timeout: 10_000 },
    );
    expect(within(record).getByRole('meter', { name: /against the threshold$/ })).toBeTruthy();
    expect(
      within(within(record).getByRole('list', { name: 'Feature contributions' })).getAllByRole('listitem')
        .length,
    ).toBe(10);
    expect(within(record).getByRole('table', { name: 'Trust gates' })).toBeTruthy();
    expect(within(record).getByText(/^No LLM review/)).toBeTruthy();

    // Kill: said plainly, then latched with the reason; no start until a person resets it
    await user.click(screen.getByRole('button', { name: 'Kill' }));
    const kill = await screen.findByRole('dialog', { name: 'Kill Agent BTC?' });
    expect(within(kill).getByText(/stays latched \(it cannot start\) until you reset it/)).toBeTruthy();
    await user.click(within(kill).getByRole('button', { name: 'Kill agent' }));
    const latched = await screen.findByRole('alert', { name: 'Latched' }, { timeout: 15_000 });
    expect(within(latched).getByText(/^Killed: latched since/)).toBeTruthy();
    expect(within(latched).getByText(/Killed by you/)).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Start' }).hasAttribute('disabled')).toBe(true),
    );

    await user.click(within(latched).getByRole('button', { name: 'Reset latch' }));
    const reset = await screen.findByRole('dialog', { name: 'Reset the latch?' });
    await user.click(within(reset).getByRole('button', { name: 'Reset latch' }));
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Latched' })).toBeNull(), {
      timeout: 10_000,
    });
    // The dialog closes once the answer is in; then Start is offered again
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 10_000 });
    await waitFor(
      () => expect(screen.getByRole('button', { name: 'Start' }).hasAttribute('disabled')).toBe(false),
      { timeout: 10_000 },
    );
  }, 150_000);

  it('sets up an LLM reviewer with a write-only key, shows today’s use against the caps, and removes it', async () => {
    const agent = await create({ name: 'Reviewed agent', strategy: 'ml-agent', params: { trainBars: 300 } });
    const { user } = renderAt(page.runtime, `/kestrel/${agent.id}`, pages);
    const llm = await section('LLM reviewer');
    await user.click(await within(llm).findByRole('button', { name: 'Set up a reviewer' }));
    const form = within(llm).getByRole('form', { name: 'LLM reviewer settings' });
    // The browser says what is wrong before anything is sent
    await user.type(within(form).getByLabelText(/^Base URL/), 'not a url');
    await user.click(within(form).getByRole('button', { name: 'Save reviewer' }));
    expect(await within(form).findByText(/^baseUrl must be an http/)).toBeTruthy();
    await user.clear(within(form).getByLabelText(/^Base URL/));
    await user.type(within(form).getByLabelText(/^Base URL/), 'http://127.0.0.1:9/v1');
    await user.type(within(form).getByLabelText(/^Model/), 'stub-model');
    await user.type(within(form).getByLabelText(/^API key/), 'sk-test-secret-0123456789');
    await user.click(within(form).getByRole('button', { name: 'Save reviewer' }));

    expect(
      await within(llm).findByText(/^stub-model at http:\/\/127\.0\.0\.1:9\/v1$/, undefined, {
        timeout: 10_000,
      }),
    ).toBeTruthy();
    expect(within(llm).getByText(/0 of 200 calls · 0 of 400,000 tokens/)).toBeTruthy();
    // The key is never shown again, only its mask
    expect(document.body.textContent).not.toContain('sk-test-secret-0123456789');
    const status = await section('Status');
    await waitFor(() =>
      expect(
        within(status).getByLabelText('Agent status').querySelector('[data-figure="llm"] dd')?.textContent,
      ).toBe('0 calls · 0 tokens'),
    );

    await user.click(within(llm).getByRole('button', { name: 'Remove reviewer' }));
    expect(await within(llm).findByText(/^None: the agent decides alone/)).toBeTruthy();
  }, 60_000);
});
