import { createRow, type Row, type RowData, type RowModel, type Table } from '@tanstack/react-table';

/**
 * TanStack Table's core row model (one `Row` per item of `data`, no sub-rows) that keeps the `Row` of every item
 * still at its place. TanStack's own `getCoreRowModel` builds every row again whenever `data` changes: a list paged
 * in as it scrolls (/history: 200 rows a page up to 10,000) rebuilt thousands of rows, a dozen closures each, for
 * every page, and those rebuilds and their garbage were the long tasks of scrolling it; a live table (the market
 * watch: one price a tick) rebuilt all its rows for each one that moved, and new rows re-render every cell.
 * Here an item that is the one at the same index last time (by identity) keeps its row, and its cells with it, so
 * only new or changed items get a new row. As TanStack's own, the model follows `data` alone (a caller's inline
 * `getRowId`, a new function each render, changes nothing). Its arrays are new each time (a row model, once handed
 * out, is never changed).
 */
export function stableRowModel<TData extends RowData>(table: Table<TData>): () => RowModel<TData> {
  let data: readonly TData[] = [];
  let model: RowModel<TData> = { rows: [], flatRows: [], rowsById: {} };
  return () => {
    const next = table.options.data;
    if (next === data) return model;
    const rows: Row<TData>[] = new Array(next.length);
    const rowsById: Record<string, Row<TData>> = {};
    for (let index = 0; index < next.length; index += 1) {
      const original = next[index] as TData;
      const kept = data[index] === original ? model.rows[index] : undefined;
      const row = kept ?? createRow(table, table._getRowId(original, index), original, index, 0);
      rows[index] = row;
      rowsById[row.id] = row;
    }
    data = next;
    // No sub-rows: every row is a top-level row
    model = { rows, flatRows: rows, rowsById };
    return model;
  };
}
