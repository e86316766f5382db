import * as React from 'react';
import { cn } from '../lib/cn';
import type { TableColumn, TableRow as TableRowModel } from '../lib/table-model';
import { TableCell, TableRow } from './table';

interface DataRowProps<TData> {
  row: TableRowModel<TData>;
  /** The table's columns: the same array while the column definitions are, new when they change */
  columns: readonly TableColumn<TData>[];
  className: string | undefined;
  index?: number;
  /** A virtualised table's fixed row height in px */
  height?: number;
}

/** One row of a DataTable: its cells, aligned and coloured by their column's meta */
function DataRowCells<TData>({ row, columns, className, index, height }: DataRowProps<TData>) {
  return (
    <TableRow
      className={className}
      aria-rowindex={index}
      style={height === undefined ? undefined : { height }}
    >
      {columns.map((column) => {
        const meta = column.def.meta;
        const cellClass =
          typeof meta?.cellClassName === 'function' ? meta.cellClassName(row.original) : meta?.cellClassName;
        const getValue = <V,>() => column.value?.(row.original, row.index) as V;
        const Cell = column.def.cell;
        return (
          <TableCell key={column.id} className={cn(meta?.align === 'right' && 'ui:text-right', cellClass)}>
            {/* A component, as TanStack's flexRender made it: a cell may use hooks */}
            {Cell ? <Cell row={row} getValue={getValue} /> : textOf(getValue())}
          </TableCell>
        );
      })}
    </TableRow>
  );
}

function textOf(value: unknown): string | null {
  return value === undefined || value === null ? null : String(value);
}

/**
 * A row renders again only when its item, its columns or its place change: a page of rows arriving, a scroll step
 * or a tick re-renders the rows that are new or changed, not every row in the DOM (React.memo loses the generic)
 */
export const DataRow = React.memo(DataRowCells) as <TData>(props: DataRowProps<TData>) => React.ReactElement;
