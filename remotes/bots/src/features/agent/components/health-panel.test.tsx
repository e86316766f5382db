import type { AgentHealth } from '@kestrel/contracts/agents';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HealthView } from './health-panel';

const health = (featureDrift: AgentHealth['featureDrift']): AgentHealth => ({
  modelId: 'm1',
  computedAt: Date.UTC(2026, 11, 1),
  featureDrift,
  calibration: [],
  hitRate: { window: 0, value: null, count: 0 },
  diHistogram: [],
  raw: {},
});

describe('the model health panel', () => {
  it('words each feature by the usual PSI bands, largest shift first, and counts them', () => {
    render(
      <HealthView
        health={health([
          { id: 'rsi_14', psi: 0.04, zMean: 0.1, band: 'stable', drifted: false },
          { id: 'vol_16', psi: 0.525, zMean: 0.4, band: 'large', drifted: true },
          { id: 'funding', psi: null, zMean: null, band: null, drifted: false },
          { id: 'ret_4', psi: 0.17, zMean: -0.2, band: 'moderate', drifted: false },
        ])}
      />,
    );
    expect(
      screen.getByRole('heading', { name: 'Feature drift: 1 large, 1 moderate, 1 stable of 4' }),
    ).toBeTruthy();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-feature'))).toEqual(['vol_16', 'ret_4', 'rsi_14', 'funding']);
    // A PSI of 0.525 is a large shift, never "no"
    expect(within(rows[0] as HTMLElement).getByText('large')).toBeTruthy();
    expect(within(rows[3] as HTMLElement).getByText('no data')).toBeTruthy();
    expect(
      screen.getByText(/below 0\.10 stable, 0\.10\s*–0\.25 moderate, 0\.25 and above large/),
    ).toBeTruthy();
  });
});
