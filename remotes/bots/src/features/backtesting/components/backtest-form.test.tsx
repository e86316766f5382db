import type { BacktestRequestInput, BacktestStrategyInfo } from '@kestrel/contracts/backtest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { engineCatalogue } from '../../../test/fixtures';
import { ParamsFields } from '../../strategy-params/components/params-fields';
import {
  describeParams,
  paramsToFormValues,
  parseStrategyParams,
} from '../../strategy-params/lib/params-schema';
import { BacktestForm } from './backtest-form';

const NOW = Date.UTC(2025, 5, 15, 12, 30);
const catalogue = engineCatalogue();

function renderForm({ serverError = null as string | null } = {}) {
  const onRun = vi.fn<(request: BacktestRequestInput) => void>();
  render(
    <BacktestForm
      strategies={catalogue}
      renderParams={(s: BacktestStrategyInfo) => (
        <ParamsFields key={s.id} fields={describeParams(s.paramsJsonSchema)} />
      )}
      paramsToForm={(s) => paramsToFormValues(s.defaults, describeParams(s.paramsJsonSchema))}
      validateParams={parseStrategyParams}
      onRun={onRun}
      running={false}
      serverError={serverError}
      now={() => NOW}
    />,
  );
  return { onRun, user: userEvent.setup(), form: screen.getByRole('form', { name: 'New backtest' }) };
}

/** The error text a screen reader announces for a field (aria-describedby) */
function describedBy(field: HTMLElement): string {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('backtest form', () => {
  it("renders the chosen strategy's parameters with their defaults", () => {
    renderForm();
    expect(screen.getByLabelText('Strategy')).toHaveProperty('value', 'ema-cross');
    expect(screen.getByLabelText('Fast')).toHaveProperty('value', '12');
    expect(screen.getByLabelText('Slow')).toHaveProperty('value', '26');
    expect(screen.getByLabelText('Side')).toHaveProperty('value', 'both');
    expect(screen.getByLabelText('Interval')).toHaveProperty('value', '1h');
  });

  it("offers every Binance interval, 1m to 1M, by the exchange's names", () => {
    renderForm();
    const options = within(screen.getByLabelText('Interval')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      '1m',
      '3m',
      '5m',
      '15m',
      '30m',
      '1h',
      '2h',
      '4h',
      '6h',
      '8h',
      '12h',
      '1d',
      '3d',
      '1w',
      '1M',
    ]);
  });

  it("swaps the parameters for the new strategy's when the strategy changes", async () => {
    const { user } = renderForm();
    await user.selectOptions(screen.getByLabelText('Strategy'), 'grid');
    expect(screen.queryByLabelText('Fast')).toBeNull();
    expect(screen.getByLabelText('Grid count')).toHaveProperty('value', '20');
    expect(screen.getByLabelText('Direction')).toHaveProperty('value', 'neutral');
    await user.selectOptions(screen.getByLabelText('Strategy'), 'dca');
    expect(screen.getByLabelText('Side')).toHaveProperty('value', 'long');
    expect(screen.getByLabelText('Base order size')).toHaveProperty('value', '200');
  });

  it('shows what is wrong under each field and does not run', async () => {
    const { user, onRun } = renderForm();
    const fast = screen.getByLabelText('Fast');
    await user.clear(fast);
    await user.type(fast, '40');
    const balance = screen.getByLabelText('Initial balance (USDT)');
    await user.clear(balance);
    await user.type(balance, '-5');
    const symbol = screen.getByLabelText('Symbol');
    await user.clear(symbol);
    await user.click(screen.getByRole('button', { name: 'Run backtest' }));

    await waitFor(() => expect(fast.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(fast)).toContain('fast must be below slow');
    expect(describedBy(balance)).toContain('Initial balance must be greater than 0');
    expect(describedBy(symbol)).toContain('Enter a symbol of 3-20 letters or digits');
    expect(onRun).not.toHaveBeenCalled();
  });

  it('refuses an end date before the start date', async () => {
    const { user, onRun } = renderForm();
    const end = screen.getByLabelText('End date');
    await user.clear(end);
    await user.type(end, '2025-01-01');
    await user.click(screen.getByRole('button', { name: 'Run backtest' }));
    await waitFor(() => expect(describedBy(end)).toContain('End date must be on or after the start date'));
    expect(onRun).not.toHaveBeenCalled();
  });

  it('sends a request the server accepts when everything is valid', async () => {
    const { user, onRun } = renderForm();
    const fast = screen.getByLabelText('Fast');
    await user.clear(fast);
    await user.type(fast, '5');
    await user.selectOptions(screen.getByLabelText('Interval'), '15m');
    await user.click(screen.getByRole('button', { name: 'Run backtest' }));
    await waitFor(() => expect(onRun).toHaveBeenCalledTimes(1));
    expect(onRun.mock.calls[0]?.[0]).toMatchObject({
      strategy: 'ema-cross',
      params: { fast: 5, slow: 26, side: 'both' },
      symbol: 'BTCUSDT',
      interval: '15m',
      startTime: Date.UTC(2025, 4, 16),
      endTime: Date.UTC(2025, 5, 15),
      costs: { initialBalance: 10_000, makerFeeRate: 0.0002, takerFeeRate: 0.0005, funding: true },
    });
  });

  it("shows the server's refusal under the form", () => {
    const { form } = renderForm({ serverError: 'params.fast: fast must be below slow' });
    expect(within(form).getByRole('alert').textContent).toBe('params.fast: fast must be below slow');
  });
});
