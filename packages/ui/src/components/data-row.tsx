import { type Cell, flexRender, type Row } from '@tanstack/react-table';
import * as React from 'react';
import { cn } from '../lib/cn';
import { TableCell, TableRow } from './table';

interface DataRowProps<TData> {
  row: Row<TData>;
  /** `row.getVisibleCells()`, handed in so that the memo sees new columns (TanStack makes new cells for them) */
  cells: Cell<TData, unknown>[];
  className: string | undefined;
  index?: number;
  /** A virtualised table's fixed row height in px */
  height?: number;
}

/** One row of a DataTable: its cells, aligned and coloured by their column's meta */
function DataRowCells<TData>({ row, cells, className, index, height }: DataRowProps<TData>) {
  return (
    <TableRow
      className={className}
      aria-rowindex={index}
      style={height === undefined ? undefined : { height }}
    >
      {cells.map((cell) => {
        const meta = cell.column.columnDef.meta;
        const cellClass =
          typeof meta?.cellClassName === 'function' ? meta.cellClassName(row.original) : meta?.cellClassName;
        return (
          <TableCell key={cell.id} className={cn(meta?.align === 'right' && 'ui:text-right', cellClass)}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </TableCell>
        );
      })}
    </TableRow>
  );
}

/**
 * A row renders again only when its item, its cells or its place change: a page of rows arriving, a scroll step or
 * a tick re-renders the rows that are new or changed, not every row in the DOM (React.memo loses the generic)
 */
export const DataRow = React.memo(DataRowCells) as <TData>(props: DataRowProps<TData>) => React.ReactElement;
