import { describe, expect, it } from 'vitest';
import { type ColumnDef, compareValues, resolveColumns, sortRows, toggleSorting } from './table-model';

interface Fill {
  symbol: string;
  price: number | null;
}

const rowsOf = (fills: Fill[]) => fills.map((original, index) => ({ id: String(index), index, original }));

describe('table model', () => {
  it('names a column by its id, else its accessor key, else its string header, and sorts only with an accessor', () => {
    const columns: ColumnDef<Fill>[] = [
      { accessorKey: 'symbol', header: 'Symbol' },
      { id: 'px', accessorFn: (f) => f.price, header: 'Price' },
      { accessorFn: (f) => f.price, header: 'Quoted' },
      { id: 'actions', header: () => null, cell: () => null },
      { accessorKey: 'price', enableSorting: false },
    ];
    expect(resolveColumns(columns).map((c) => [c.id, c.canSort])).toEqual([
      ['symbol', true],
      ['px', true],
      ['Quoted', true],
      ['actions', false],
      ['price', false],
    ]);
    expect(() => resolveColumns<Fill, unknown>([{ cell: () => null }])).toThrow('Column 0 needs an id');
  });

  it('orders digits in text as numbers, ignores case, and puts missing values last both ways', () => {
    expect(['BTC10', 'btc2', 'BTC1'].sort(compareValues)).toEqual(['BTC1', 'btc2', 'BTC10']);
    const columns = resolveColumns<Fill, unknown>([{ accessorKey: 'price' }]);
    const fills = rowsOf([
      { symbol: 'A', price: 2 },
      { symbol: 'B', price: null },
      { symbol: 'C', price: 10 },
      { symbol: 'D', price: 2 },
    ]);
    const symbols = (desc: boolean) =>
      sortRows(fills, columns, [{ id: 'price', desc }]).map((r) => r.original.symbol);
    // Equal prices keep their order either way
    expect(symbols(false)).toEqual(['A', 'D', 'C', 'B']);
    expect(symbols(true)).toEqual(['C', 'A', 'D', 'B']);
  });

  it('starts a new column ascending and flips the sorted one, one column at a time', () => {
    expect(toggleSorting([], 'pnl')).toEqual([{ id: 'pnl', desc: false }]);
    expect(toggleSorting([{ id: 'pnl', desc: false }], 'pnl')).toEqual([{ id: 'pnl', desc: true }]);
    expect(toggleSorting([{ id: 'pnl', desc: true }], 'size')).toEqual([{ id: 'size', desc: false }]);
  });
});
