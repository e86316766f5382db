import type { FuturesTrade } from '@kestrel/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TRADE_COLUMNS } from './history-columns';
import { HistoryTable, type HistoryTableProps } from './history-table';

const props = (over: Partial<HistoryTableProps<FuturesTrade>>): HistoryTableProps<FuturesTrade> => ({
  label: 'Trades',
  columns: TRADE_COLUMNS,
  rows: [],
  getRowId: (t) => t.id,
  sorting: [{ id: 'time', desc: true }],
  onSortingChange: () => {},
  status: 'success',
  onRetry: () => {},
  emptyTitle: 'No trades in this range',
  hasNextPage: false,
  isFetchingNextPage: false,
  fetchNextPage: () => {},
  resetKey: '',
  ...over,
});

describe('a history table', () => {
  it('says it is loading, with no figure', () => {
    render(<HistoryTable {...props({ status: 'pending' })} />);
    expect(screen.getByRole('status').textContent).toBe('Loading trades…');
  });

  it('on an error says what failed and retries on demand', async () => {
    const onRetry = vi.fn();
    render(<HistoryTable {...props({ status: 'error', error: 'Cannot reach the server', onRetry })} />);
    expect(screen.getByRole('heading', { name: 'Could not load trades' })).toBeTruthy();
    expect(screen.getByText('Cannot reach the server')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('with no row says the range is empty instead of drawing a table', () => {
    render(<HistoryTable {...props({})} />);
    expect(screen.getByRole('heading', { name: 'No trades in this range' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
