import type * as React from 'react';

/**
 * DataTable's columns, rows and order: the part of TanStack Table's model our tables used (accessors, header and
 * cell renderers, one sorted column), written out so a page does not carry the whole table core (12 KB gzip on
 * /dashboard) for it. Column definitions keep TanStack's shape, so a column reads the same as before.
 */

export interface ColumnMeta<TData> {
  /** Figures align right, their header with them */
  align?: 'left' | 'right';
  /** Classes of this column's cells, fixed or per row (a PnL's colour) */
  cellClassName?: string | ((row: TData) => string);
}

/** One item of the table's data at its place */
export interface TableRow<TData> {
  id: string;
  index: number;
  original: TData;
}

export interface CellContext<TData, TValue> {
  row: TableRow<TData>;
  /** The column's accessor applied to the row (undefined for a column without one) */
  getValue: <V = TValue>() => V;
}

export interface ColumnDef<TData, TValue = unknown> {
  /** The column's key in the sorting state; by default its `accessorKey`, else its header when that is a string */
  id?: string;
  accessorKey?: keyof TData & string;
  accessorFn?: (row: TData, index: number) => TValue;
  /** A function header is rendered as a component (it may use hooks) */
  header?: string | (() => React.ReactNode);
  /** Rendered as a component (it may use hooks); by default the value as text */
  cell?: (context: CellContext<TData, TValue>) => React.ReactNode;
  meta?: ColumnMeta<TData>;
  /** A column with an accessor sorts unless this is false */
  enableSorting?: boolean;
}

/** The sorted column (at most one), as TanStack's sorting state */
export type SortingState = { id: string; desc: boolean }[];

/** A column definition made ready to render and sort */
export interface TableColumn<TData> {
  id: string;
  def: ColumnDef<TData, unknown>;
  value: ((row: TData, index: number) => unknown) | undefined;
  canSort: boolean;
}

export function resolveColumns<TData, TValue>(
  defs: readonly ColumnDef<TData, TValue>[],
): TableColumn<TData>[] {
  return defs.map((given, position) => {
    const def = given as ColumnDef<TData, unknown>;
    const key = def.accessorKey;
    const value = def.accessorFn ?? (key === undefined ? undefined : (row: TData) => row[key]);
    const id = def.id ?? key ?? (typeof def.header === 'string' ? def.header : undefined);
    if (id === undefined)
      throw new Error(`Column ${position} needs an id, an accessorKey or a string header`);
    return { id, def, value, canSort: value !== undefined && def.enableSorting !== false };
  });
}

/** The next order after a click on a column: a new column starts ascending, the sorted one flips */
export function toggleSorting(sorting: SortingState, columnId: string): SortingState {
  const current = sorting[0];
  return [{ id: columnId, desc: current?.id === columnId ? !current.desc : false }];
}

/**
 * Two values of a column in ascending order: numbers by size, text by letters with its digits as numbers
 * ("BTC2" before "BTC10"), dates by time; a missing value after every other (TanStack's `sortUndefined: 1`).
 */
export function compareValues(a: unknown, b: unknown): number {
  const aMissing = a === undefined || a === null;
  const bMissing = b === undefined || b === null;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'string' && typeof b === 'string') {
    return a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });
  }
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  return (x as number) > (y as number) ? 1 : (x as number) < (y as number) ? -1 : 0;
}

/** The rows in the sorting state's order; rows that compare equal keep their order. A new array. */
export function sortRows<TData>(
  rows: readonly TableRow<TData>[],
  columns: readonly TableColumn<TData>[],
  sorting: SortingState,
): TableRow<TData>[] {
  const entry = sorting[0];
  const column = entry && columns.find((c) => c.id === entry.id);
  const value = column?.value;
  if (!entry || !value) return [...rows];
  const keyed = rows.map((row) => ({ row, key: value(row.original, row.index) }));
  keyed.sort((a, b) => {
    const order = compareValues(a.key, b.key);
    if (order === 0) return a.row.index - b.row.index;
    // A missing value stays last whichever way the column is sorted
    const missing = a.key === undefined || a.key === null || b.key === undefined || b.key === null;
    return entry.desc && !missing ? -order : order;
  });
  return keyed.map((k) => k.row);
}

/**
 * The rows of `next`, keeping the row object of every item still at its place (by identity), so a page of rows
 * paged in or one price that moved renders only the rows that are new or changed. As TanStack's core row model, the
 * rows follow `data` alone: an inline `getRowId` (a new function each render) changes nothing.
 */
export function followRows<TData>(
  previous: { data: readonly TData[]; rows: readonly TableRow<TData>[] },
  next: readonly TData[],
  getRowId: ((row: TData, index: number) => string) | undefined,
): TableRow<TData>[] {
  return next.map((original, index) => {
    const kept = previous.data[index] === original ? previous.rows[index] : undefined;
    return kept ?? { id: getRowId ? getRowId(original, index) : String(index), index, original };
  });
}
