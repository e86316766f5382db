import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { type ColumnDef, DataTable } from './data-table';

interface Position {
  symbol: string;
  size: number;
  pnl: number;
}

const POSITIONS: Position[] = [
  { symbol: 'ETHUSDT', size: 2, pnl: -12.5 },
  { symbol: 'BTCUSDT', size: 0.015, pnl: 40 },
  { symbol: 'SOLUSDT', size: 10, pnl: 3.25 },
];

const columns: ColumnDef<Position>[] = [
  { accessorKey: 'symbol', header: 'Symbol' },
  { accessorKey: 'size', header: 'Size', meta: { align: 'right' } },
  {
    accessorKey: 'pnl',
    header: 'PnL',
    meta: { align: 'right', cellClassName: (row) => (row.pnl < 0 ? 'loss' : 'gain') },
  },
];

function symbols(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent ?? '');
}

describe('DataTable', () => {
  it('is a named table in a named, focusable scroll frame, rows in the given order', () => {
    render(<DataTable columns={columns} data={POSITIONS} label="Positions" />);
    const table = screen.getByRole('table', { name: 'Positions' });
    expect(symbols(table)).toEqual(['ETHUSDT', 'BTCUSDT', 'SOLUSDT']);
    const frame = screen.getByRole('region', { name: 'Positions (scrolls sideways)' });
    expect(frame.tabIndex).toBe(0);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .every((h) => h.getAttribute('aria-sort') === null),
    ).toBe(true);
  });

  it('sorts on a header click, ascending first, then flips; aria-sort says which way', async () => {
    const user = userEvent.setup();
    render(<DataTable columns={columns} data={POSITIONS} label="Positions" />);
    const table = screen.getByRole('table', { name: 'Positions' });
    const pnl = within(table).getByRole('columnheader', { name: 'PnL' });
    await user.click(within(pnl).getByRole('button', { name: 'PnL' }));
    expect(symbols(table)).toEqual(['ETHUSDT', 'SOLUSDT', 'BTCUSDT']);
    expect(pnl.getAttribute('aria-sort')).toBe('ascending');
    expect(pnl.textContent).toContain('▲');
    await user.click(within(pnl).getByRole('button', { name: 'PnL' }));
    expect(symbols(table)).toEqual(['BTCUSDT', 'SOLUSDT', 'ETHUSDT']);
    expect(pnl.getAttribute('aria-sort')).toBe('descending');
    // A third click flips again: a sorted table never silently falls back to the unsorted order
    await user.click(within(pnl).getByRole('button', { name: 'PnL' }));
    expect(pnl.getAttribute('aria-sort')).toBe('ascending');
  });

  it('sorts words alphabetically and from the keyboard, one column at a time', async () => {
    const user = userEvent.setup();
    render(<DataTable columns={columns} data={POSITIONS} label="Positions" />);
    const table = screen.getByRole('table', { name: 'Positions' });
    within(table).getByRole('button', { name: 'Symbol' }).focus();
    await user.keyboard('{Enter}');
    expect(symbols(table)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    within(table).getByRole('button', { name: 'Size' }).focus();
    await user.keyboard(' ');
    expect(symbols(table)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    const sorted = within(table)
      .getAllByRole('columnheader')
      .filter((h) => h.getAttribute('aria-sort') !== null);
    expect(sorted.map((h) => h.textContent)).toEqual(['Size▲']);
  });

  it("applies a column's per-row cell classes", () => {
    render(<DataTable columns={columns} data={POSITIONS} label="Positions" />);
    const cell = screen.getByRole('cell', { name: '-12.5' });
    expect(cell.className).toContain('loss');
    expect(screen.getByRole('cell', { name: '40' }).className).toContain('gain');
  });

  it('shows the empty state instead of a table without rows', () => {
    render(<DataTable columns={columns} data={[]} label="Positions" empty={<p>No open positions</p>} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No open positions')).toBeTruthy();
  });

  it('renders only a window of 10,000 rows, and still tells screen readers the full count', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ symbol: `S${i}`, size: i, pnl: i % 7 }));
    // happy-dom lays nothing out: give the scroll frame the 320 px a browser would
    const frameHeight = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(320);
    const frameWidth = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
    onTestFinished(() => {
      frameHeight.mockRestore();
      frameWidth.mockRestore();
    });
    const user = userEvent.setup();
    render(
      <DataTable
        columns={columns}
        data={many}
        label="Fills"
        virtualize={{ rowHeight: 32, height: 320, overscan: 5 }}
      />,
    );
    const table = screen.getByRole('table', { name: 'Fills' });
    // The virtualizer is a chunk of its own, loaded by the first virtualised table: the rows follow it
    await waitFor(() => expect(within(table).getAllByRole('row').length).toBeGreaterThan(1));
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.length).toBeLessThanOrEqual(10 + 2 * 5);
    expect(table.getAttribute('aria-rowcount')).toBe('10001');
    expect(rows[0]?.getAttribute('aria-rowindex')).toBe('2');
    // Sorting works on every row, not only those in the DOM: descending by size puts the last row first
    await user.click(within(table).getByRole('button', { name: 'Size' }));
    await user.click(within(table).getByRole('button', { name: 'Size' }));
    expect(symbols(table)[0]).toBe('S9999');
  });
});

describe('DataTable with rows paged in', () => {
  /** Columns whose cells count how often they render */
  function countingColumns(label = 'Symbol') {
    const rendered: string[] = [];
    const counted: ColumnDef<Position>[] = [
      {
        id: 'symbol',
        header: label,
        cell: ({ row }) => {
          rendered.push(row.original.symbol);
          return `${label === 'Symbol' ? '' : `${label} `}${row.original.symbol}`;
        },
      },
      { accessorKey: 'size', header: 'Size', meta: { align: 'right' } },
    ];
    return { counted, rendered };
  }
  const page = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ symbol: `S${from + i}`, size: from + i, pnl: 0 }));
  const bySymbol = (p: Position) => p.symbol;

  it('renders only the rows a new page adds, and keeps those already on screen', () => {
    const { counted, rendered } = countingColumns();
    const first = page(0, 3);
    const { rerender } = render(
      <DataTable columns={counted} data={first} getRowId={bySymbol} label="Fills" manualSorting />,
    );
    const table = screen.getByRole('table', { name: 'Fills' });
    const firstRow = within(table).getAllByRole('row')[1];
    expect(rendered).toEqual(['S0', 'S1', 'S2']);
    rendered.length = 0;
    // The next page: the same items followed by new ones, as an infinite query hands them
    rerender(
      <DataTable
        columns={counted}
        data={[...first, ...page(3, 2)]}
        getRowId={bySymbol}
        label="Fills"
        manualSorting
      />,
    );
    expect(symbols(table)).toEqual(['S0', 'S1', 'S2', 'S3', 'S4']);
    expect(rendered).toEqual(['S3', 'S4']);
    expect(within(table).getAllByRole('row')[1]).toBe(firstRow);
  });

  it('renders again only the row whose item changed, and shows new columns over the same rows', () => {
    const { counted, rendered } = countingColumns();
    const first = page(0, 3);
    const { rerender } = render(
      <DataTable columns={counted} data={first} getRowId={bySymbol} label="Fills" manualSorting />,
    );
    const table = screen.getByRole('table', { name: 'Fills' });
    rendered.length = 0;
    // A live update: one item replaced, the others the same objects
    const updated = first.map((p) => (p.symbol === 'S1' ? { ...p, size: 99 } : p));
    rerender(<DataTable columns={counted} data={updated} getRowId={bySymbol} label="Fills" manualSorting />);
    expect(rendered).toEqual(['S1']);
    expect(
      within(table)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['S0', '0', 'S1', '99', 'S2', '2']);
    // A shorter list (a new filter)
    rerender(
      <DataTable columns={counted} data={page(7, 1)} getRowId={bySymbol} label="Fills" manualSorting />,
    );
    expect(symbols(table)).toEqual(['S7']);
    // New columns over the same rows
    const { counted: renamed } = countingColumns('Pair');
    rerender(
      <DataTable columns={renamed} data={page(7, 1)} getRowId={bySymbol} label="Fills" manualSorting />,
    );
    expect(symbols(table)).toEqual(['Pair S7']);
  });

  it('keeps unchanged rows when it sorts them itself, and sorts a changed one into place', () => {
    const { counted, rendered } = countingColumns();
    const sized = (size: number, symbol: string) => ({ symbol, size, pnl: 0 });
    const first = [sized(3, 'A'), sized(1, 'B'), sized(2, 'C')];
    const sorting = [{ id: 'size', desc: false }];
    const { rerender } = render(
      <DataTable columns={counted} data={first} getRowId={bySymbol} label="Fills" initialSorting={sorting} />,
    );
    const table = screen.getByRole('table', { name: 'Fills' });
    expect(symbols(table)).toEqual(['B', 'C', 'A']);
    rendered.length = 0;
    const moved = first.map((p) => (p.symbol === 'B' ? sized(9, 'B') : p));
    rerender(
      <DataTable columns={counted} data={moved} getRowId={bySymbol} label="Fills" initialSorting={sorting} />,
    );
    expect(symbols(table)).toEqual(['C', 'A', 'B']);
    expect(rendered).toEqual(['B']);
  });

  it('sorts rows paged in with those it had, when it sorts itself', async () => {
    const user = userEvent.setup();
    const first = [POSITIONS[0], POSITIONS[1]] as Position[];
    const { rerender } = render(<DataTable columns={columns} data={first} label="Positions" />);
    const table = screen.getByRole('table', { name: 'Positions' });
    await user.click(within(table).getByRole('button', { name: 'Symbol' }));
    rerender(<DataTable columns={columns} data={[...first, POSITIONS[2] as Position]} label="Positions" />);
    expect(symbols(table)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
  });
});
