import { createRow, type Row, type RowData, type RowModel, type Table } from '@tanstack/react-table';

/**
 * TanStack Table's core row model (one `Row` per item of `data`, no sub-rows), built only for items it has not seen.
 * TanStack's own `getCoreRowModel` builds every row again whenever `data` changes; a list paged in as it scrolls
 * (/history: 200 rows a page up to 10,000) then rebuilds thousands of rows, each a dozen closures, for every page,
 * and those rebuilds and their garbage were the long tasks of scrolling it. Here, when `data` holds the previous
 * items at the same places (compared by identity) followed by new ones, the rows already built are kept and only the
 * new ones are made; any other change (a refetch, a new filter, another `getRowId`) builds all of them again.
 * The model's arrays are new each time (a row model, once handed out, is never changed).
 */
export function appendingRowModel<TData extends RowData>(table: Table<TData>): () => RowModel<TData> {
  let data: readonly TData[] = [];
  let getRowId: unknown;
  let model: RowModel<TData> = { rows: [], flatRows: [], rowsById: {} };
  return () => {
    const next = table.options.data;
    if (next === data && table.options.getRowId === getRowId) return model;
    const keep = table.options.getRowId === getRowId ? sharedPrefix(data, next) : 0;
    const rows: Row<TData>[] = model.rows.slice(0, keep);
    const rowsById: Record<string, Row<TData>> = keep === 0 ? {} : { ...model.rowsById };
    for (let index = keep; index < next.length; index += 1) {
      const original = next[index] as TData;
      const row = createRow(table, table._getRowId(original, index), original, index, 0);
      rows.push(row);
      rowsById[row.id] = row;
    }
    data = next;
    getRowId = table.options.getRowId;
    // No sub-rows: every row is a top-level row
    model = { rows, flatRows: rows, rowsById };
    return model;
  };
}

/** How many items at the start of `next` are the items of `previous`, when all of them are (else 0) */
function sharedPrefix<T>(previous: readonly T[], next: readonly T[]): number {
  if (previous.length > next.length) return 0;
  for (let i = 0; i < previous.length; i += 1) if (previous[i] !== next[i]) return 0;
  return previous.length;
}
