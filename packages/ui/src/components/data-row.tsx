import { type Cell, flexRender } from '@tanstack/react-table';
import * as React from 'react';
import { cn } from '../lib/cn';
import { TableCell, TableRow } from './table';

interface DataRowProps<TData> {
  /** The row's item (`row.original`) */
  original: TData;
  /**
   * `row.getVisibleCells()`: the same array while the row and the columns are (a sorted row model hands out copies
   * of the rows, never of their cells), new when the columns change
   */
  cells: Cell<TData, unknown>[];
  className: string | undefined;
  index?: number;
  /** A virtualised table's fixed row height in px */
  height?: number;
}

/** One row of a DataTable: its cells, aligned and coloured by their column's meta */
function DataRowCells<TData>({ original, cells, className, index, height }: DataRowProps<TData>) {
  return (
    <TableRow
      className={className}
      aria-rowindex={index}
      style={height === undefined ? undefined : { height }}
    >
      {cells.map((cell) => {
        const meta = cell.column.columnDef.meta;
        const cellClass =
          typeof meta?.cellClassName === 'function' ? meta.cellClassName(original) : meta?.cellClassName;
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
