import type { AgentEvidence } from '@kestrel/contracts/agents';
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
    expect(figures.querySelector('[data-figure="trials"]')?.textContent).toContain('configurations tried');
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

  it('names every input the server sends in words, rounds the embargo, and folds a long fold table away', () => {
    const report = evidence.report as NonNullable<AgentEvidence['report']>;
    const folds = Array.from({ length: 84 }, (_, i) => ({
      ...report.folds[0],
      fold: i + 1,
      // The server has no per-fold Sharpe: the columns are left out rather than filled with dashes
      sharpe: null,
      inSampleSharpe: null,
    })) as typeof report.folds;
    render(
      <EvidenceView
        evidence={{
          ...evidence,
          report: {
            ...report,
            folds,
            cv: { ...report.cv, embargoPct: 0.9892594686263425 },
            inputs: {
              trials: 12,
              expectedMaxSharpe: 0.2146,
              inSampleSharpe: 0.16,
              retention: -0.13,
              periods: 83,
              periodBars: 24,
              randomEntryPValue: 0.46,
            },
          },
        }}
        model={null}
      />,
    );
    const inputs = screen.getByLabelText('Inputs of PSR, DSR and PBO');
    for (const words of [
      'Expected max Sharpe of N trials (SR₀)',
      'In-sample Sharpe per period (not evidence)',
      'Out-of-sample Sharpe ÷ in-sample',
      'Periods (T)',
      'Bars per period',
      'Random-entry p-value',
    ]) {
      expect(within(inputs).getByText(words)).toBeTruthy();
    }
    // Counts read as counts
    expect(within(inputs).getByText('Periods (T)').nextElementSibling?.textContent).toBe('83');
    expect(within(inputs).getByText('Random-entry p-value').nextElementSibling?.textContent).toBe('0.4600');
    const figures = screen.getByLabelText('Evidence figures');
    expect(figures.querySelector('[data-figure="cv"]')?.textContent).toContain('3 folds, 1.0 % embargo');
    // The registry's 3 configurations and the DSR's 12 (with the variants) side by side, not in contradiction
    expect(figures.querySelector('[data-figure="trials"]')?.textContent).toContain(
      'configurations tried; the DSR counts 12 with variants',
    );
    const table = screen.getByRole('table', { name: 'Walk-forward folds', hidden: true });
    expect(table.closest('details')?.open).toBe(false);
    expect(screen.getByText('Walk-forward folds (84)')).toBeTruthy();
    expect(table.querySelectorAll('tbody tr')).toHaveLength(84);
    expect(table.textContent).not.toContain('Sharpe');
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
