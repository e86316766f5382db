import type { AgentEvidence } from '@kestrel/contracts';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EvidenceView } from './evidence-panel';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1);
const curve = (values: number[]) => values.map((value, i) => ({ time: T0 + i * DAY, value }));

const evidence: AgentEvidence = {
  report: {
    computedAt: T0 + 30 * DAY,
    oosEquity: curve([1, 1.01, 1.03]),
    buyAndHold: curve([1, 0.99, 1.02]),
    randomEntry: curve([1, 0.995, 0.99]),
    folds: [
      {
        fold: 1,
        trainFrom: T0 - 20 * DAY,
        trainTo: T0 - DAY,
        testFrom: T0,
        testTo: T0 + 2 * DAY,
        trades: 14,
        returnPct: 3,
        sharpe: 1.21,
        inSampleSharpe: 2.4,
      },
    ],
    cv: { folds: [0.52, 0.55, 0.5], mean: 0.523, embargoPct: 1 },
    psr: 0.97,
    dsr: 0.91,
    pbo: 0.2,
    inputs: { observations: 4320, sharpe: 0.031, skewness: -0.2, kurtosis: 4.1, trials: 3 },
    costs: { fees: 0.0123, slippage: 0.004, funding: 0.001 },
    gates: [
      { id: 'dsr', label: 'Deflated Sharpe ratio ≥ 0.95', passed: false, value: 0.91, limit: 0.95 },
      { id: 'pbo', label: 'Probability of overfitting ≤ 0.3', passed: true, value: 0.2, limit: 0.3 },
    ],
    passed: false,
    raw: {},
  },
  reportError: null,
  trials: 3,
  paperDrift: null,
};

describe('the evidence', () => {
  it('leads with out-of-sample figures and the gates, shows the inputs and costs, and greys the in-sample ones', () => {
    render(<EvidenceView evidence={evidence} model={null} />);
    expect(screen.getByText('The evidence does not pass its gates.')).toBeTruthy();
    const figures = screen.getByLabelText('Evidence figures');
    expect(figures.querySelector('[data-figure="dsr"]')?.textContent).toContain('0.910');
    expect(figures.querySelector('[data-figure="dsr"]')?.textContent).toContain('after 3 trials');
    expect(figures.querySelector('[data-figure="pbo"] dd')?.textContent).toBe('0.200');
    const gates = screen.getByRole('list', { name: 'Evidence gates' });
    expect(gates.querySelector('[data-gate="dsr"]')?.textContent).toMatch(/Fail.*needs 0\.950/);
    expect(
      within(screen.getByLabelText('Inputs of PSR, DSR and PBO')).getByText('Observations (T)'),
    ).toBeTruthy();
    expect(within(screen.getByLabelText('Costs out of sample')).getByText('Fees')).toBeTruthy();
    const folds = screen.getByRole('table', { name: 'Walk-forward folds' });
    const inSample = folds.querySelector('[data-in-sample="true"]');
    expect(inSample?.textContent).toBe('2.40');
    expect(inSample?.className).toContain('bt:text-muted-foreground');
    expect(screen.getByText('Not yet: the agent has not traded on paper.')).toBeTruthy();
  });

  it('says why the last training computed none', () => {
    render(
      <EvidenceView
        evidence={{
          ...evidence,
          report: null,
          reportError: 'Evidence not computed: evidence needs more bars: 5076 give 0 test bars',
        }}
        model={null}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Evidence not computed: evidence needs more bars: 5076 give 0 test bars',
    );
    expect(screen.getByText(/^No evidence yet/)).toBeTruthy();
  });
});
