import { flexRender, type Row } from '@tanstack/react-table';
import type * as React from 'react';
import { cn } from '../lib/cn';
import { TableCell, TableRow } from './table';

/** One row of a DataTable: its cells, aligned and coloured by their column's meta */
export function DataRow<TData>({
  row,
  className,
  index,
  style,
}: {
  row: Row<TData>;
  className: string | undefined;
  index?: number;
  style?: React.CSSProperties;
}) {
  return (
    <TableRow className={className} aria-rowindex={index} style={style}>
      {row.getVisibleCells().map((cell) => {
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
