import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { metrics, summary } from '../../../test/fixtures';
import { RunsComparison, type RunsComparisonProps } from './runs-comparison';

const runs = [
  summary('a', { strategyName: 'EMA crossover', metrics: metrics({ totalReturn: 0.1 }) }),
  summary('b', { strategyName: 'Futures grid', metrics: metrics({ totalReturn: 0.25 }) }),
  summary('c', { strategyName: 'DCA with safety orders', status: 'running', progress: 0.4, metrics: null }),
];

function renderList(props: Partial<RunsComparisonProps> = {}) {
  const handlers = { onOpen: vi.fn(), onDelete: vi.fn(), onRetry: vi.fn() };
  render(
    <RunsComparison
      runs={runs}
      loading={false}
      error={null}
      activeRunId={null}
      deletingId={null}
      deleteError={null}
      {...handlers}
      {...props}
    />,
  );
  return { ...handlers, user: userEvent.setup() };
}

describe('past runs', () => {
  it('lists each run with its key figures and status', () => {
    renderList();
    const table = screen.getByRole('table', { name: 'Past runs' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain('Futures grid · BTCUSDT 1h');
    expect(rows[1]?.textContent).toContain('+25.00%');
    expect(rows[2]?.textContent).toContain('Running 40%');
  });

  it('compares two or more ticked runs side by side, best figure marked', async () => {
    const { user } = renderList();
    expect(screen.queryByRole('table', { name: 'Comparison of selected runs' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: /^Compare EMA crossover/ }));
    expect(screen.getByText('Select one more run to compare.')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: /^Compare Futures grid/ }));

    const comparison = screen.getByRole('table', { name: 'Comparison of selected runs' });
    const totalReturn = within(comparison).getByRole('row', { name: /^Total return/ });
    const cells = within(totalReturn).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['+10.00%', '+25.00% (best)']);
  });

  it('cannot tick a run that has not finished', () => {
    renderList();
    expect(screen.getByRole('checkbox', { name: /^Compare DCA/ })).toHaveProperty('disabled', true);
  });

  it('deletes a run only after a confirmation', async () => {
    const { user, onDelete } = renderList();
    await user.click(screen.getByRole('button', { name: /^Delete EMA crossover/ }));
    expect(onDelete).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: /^Confirm delete EMA crossover/ }));
    expect(onDelete).toHaveBeenCalledWith('a');
  });

  it('opens a run', async () => {
    const { user, onOpen } = renderList();
    await user.click(screen.getByRole('button', { name: /^View Futures grid/ }));
    expect(onOpen).toHaveBeenCalledWith('b');
  });

  it('says so when there are no runs yet, and offers a retry when the list fails', async () => {
    renderList({ runs: [] });
    expect(screen.getByText('No backtests yet. Runs you start appear here.')).toBeTruthy();
    const { user, onRetry } = renderList({
      runs: undefined,
      error: new Error('HTTP 500: Internal Server Error'),
    });
    expect(screen.getByRole('alert').textContent).toContain('HTTP 500: Internal Server Error');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalled();
  });
});
