import type { AgentDecisionRecord, AgentDecisionSummary } from '@kestrel/contracts/agents';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DecisionRecordView } from './decision-record';
import { DecisionTimeline } from './decision-timeline';

const AGENT = '00000000-0000-4000-8000-000000000001';
const BAR = Date.UTC(2026, 10, 20, 12);

const summary = (overrides: Partial<AgentDecisionSummary> = {}): AgentDecisionSummary => ({
  id: '7',
  agentId: AGENT,
  barTime: BAR,
  time: BAR + 60_000,
  action: 'enter_long',
  outcome: 'refused',
  reasonCodes: ['signal_long'],
  sizeFraction: 0.25,
  pUp: 0.64,
  pDown: 0.12,
  threshold: 0.6,
  modelId: 'model-abcdef0123456789',
  stage: 'paper',
  reviewVerdict: null,
  note: 'Enter long refused: notional after the order 1,250 USDT of 1,000 allowed',
  ...overrides,
});

const contribution = (id: string, c: number, available = true) => ({
  id,
  value: 1,
  scaled: 0.5,
  coefficient: c * 2,
  contribution: c,
  available,
});

const record: AgentDecisionRecord = {
  ...summary(),
  decision: {
    barTime: BAR,
    action: 'enter_long',
    sizeFraction: 0.25,
    stopPct: 0.012,
    reasonCodes: ['signal_long'],
    modelId: 'model-abcdef0123456789',
    modelAgeHours: 3.5,
    pUp: 0.64,
    pDown: 0.12,
    threshold: 0.6,
    expectedEdge: 0.0031,
    dissimilarity: 0.4,
    predictionZ: 1.9,
    contributions: [
      contribution('ret_4', 0.05),
      contribution('rsi_14', -0.4),
      contribution('funding', 0, false),
      contribution('vol_z', 0.9),
    ],
    gates: [
      { gate: 'model_fresh', passed: true, value: 3.5, limit: 24 },
      { gate: 'edge', passed: true, value: 0.0031, limit: 0.0012 },
    ],
    snapshotHash: 'snap0123456789abcdef',
  },
  review: null,
  guard: {
    passed: false,
    exit: false,
    proposedQty: 0.025,
    price: 50_000,
    checks: [
      { check: 'data_fresh', passed: true, before: 0, after: 0, limit: 1, detail: 'Last bar closed 2 s ago' },
      {
        check: 'max_notional',
        passed: false,
        before: 0,
        after: 1250,
        limit: 1000,
        detail: 'Notional after the order 1,250.00 USDT of 1,000 allowed',
      },
    ],
  },
  orders: [],
  fills: [],
  positionQty: 0,
  price: 50_000,
};

describe("a decision's record", () => {
  it('shows p against the threshold, the features by how much they moved it, the gates and each guard check before → after', () => {
    render(<DecisionRecordView agentId={AGENT} record={record} />);
    const article = screen.getByRole('article', { name: 'Decision record of the bar 2026-11-20 12:00 UTC' });
    expect(within(article).getByText('Refused by guard')).toBeTruthy();
    const meter = within(article).getByRole('meter', { name: 'p(up) against the threshold' });
    expect(meter.getAttribute('aria-valuetext')).toBe('64.0 % of 60.0 % needed');
    expect(within(article).getByText('reached')).toBeTruthy();

    // Largest |contribution| first, the missing feature last and marked
    const features = within(
      within(article).getByRole('list', { name: 'Feature contributions' }),
    ).getAllByRole('listitem');
    expect(features.map((f) => f.getAttribute('data-feature'))).toEqual([
      'vol_z',
      'rsi_14',
      'ret_4',
      'funding',
    ]);
    expect(features[1]?.textContent).toContain('-0.400');
    expect(features[3]?.textContent).toContain('(missing)');

    const gates = within(article).getByRole('table', { name: 'Trust gates' });
    expect(gates.querySelector('[data-gate="model_fresh"]')?.textContent).toContain('Pass');

    const guard = within(article).getByRole('table', { name: 'Risk guard checks' });
    const notional = guard.querySelector('[data-check="max_notional"]');
    expect(notional?.textContent).toContain('0 → 1250');
    expect(notional?.textContent).toContain('Fail');
    expect(within(article).getByText('No order was sent for this bar.')).toBeTruthy();
    // No reviewer configured: said, not hidden
    expect(within(article).getByText(/No LLM review/)).toBeTruthy();
  });

  it('keeps the LLM exchange collapsed under its verdict', () => {
    render(
      <DecisionRecordView
        agentId={AGENT}
        record={{
          ...record,
          review: {
            verdict: 'reduce',
            sizeMultiplier: 0.5,
            rationale: 'Funding is stretched',
            citedFeatures: ['funding'],
            model: 'stub-model',
            latencyMs: 420,
            promptTokens: 900,
            completionTokens: 60,
            error: null,
            exchangeId: '12',
          },
        }}
      />,
    );
    const details = screen.getByText('LLM review: reduce to 50%').closest('details');
    expect(details?.open).toBe(false);
    expect(within(details as HTMLElement).getByText('Funding is stretched')).toBeTruthy();
  });
});

describe('the decision timeline', () => {
  it('lists holds with their reasons and opens the record of the line clicked', async () => {
    const onSelect = vi.fn();
    render(
      <DecisionTimeline
        decisions={[
          summary(),
          summary({
            id: '6',
            barTime: BAR - 60_000,
            action: 'hold',
            outcome: 'hold',
            reasonCodes: ['below_threshold', 'edge_below_costs'],
            note: 'Hold: p(up) 52.0 % below the threshold',
          }),
        ]}
        selected="7"
        onSelect={onSelect}
        hasOlder={false}
        loadingOlder={false}
        onOlder={() => undefined}
      />,
    );
    const list = screen.getByRole('list', { name: 'Decisions, newest first' });
    const hold = within(list).getByRole('button', { name: /^2026-11-20 11:59 Hold/ });
    expect(within(hold).getByText('Below threshold')).toBeTruthy();
    expect(within(hold).getByText('Edge below costs')).toBeTruthy();
    expect(
      within(list)
        .getByRole('button', { name: /^2026-11-20 12:00 Enter long/ })
        .getAttribute('aria-current'),
    ).toBe('true');
    await userEvent.setup().click(hold);
    expect(onSelect).toHaveBeenCalledWith('6');
  });
});
