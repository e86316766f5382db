import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  type Header,
  type OnChangeFn,
  type Row,
  type RowData,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import * as React from 'react';
import { cn } from '../lib/cn';
import { ScrollRegion } from './scroll-region';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from './table';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Figures align right, their header with them */
    align?: 'left' | 'right';
    /** Classes of this column's cells, fixed or per row (a PnL's colour) */
    cellClassName?: string | ((row: TData) => string);
  }
}

/** The visible mark of a header's order; an unsorted column shows it can be sorted */
const SORT_ARROW = { ascending: '▲', descending: '▼', none: '↕' } as const;

export interface DataTableVirtualization {
  /** Every row's height in px (rows of a trading table are one line) */
  rowHeight: number;
  /** Height of the scrolling body in px */
  height: number;
  /** Rows rendered beyond each edge of the view, so fast scrolling shows no gap */
  overscan?: number;
}

export interface DataTableProps<TData, TValue = unknown> {
  columns: ColumnDef<TData, TValue>[];
  data: readonly TData[];
  /** The table's accessible name */
  label: string;
  /** The scroll frame's name; by default "<label> (scrolls sideways)" */
  scrollLabel?: string;
  getRowId?: (row: TData, index: number) => string;
  /** Controlled order (with `onSortingChange`); otherwise the table keeps its own, from `initialSorting` */
  sorting?: SortingState;
  onSortingChange?: OnChangeFn<SortingState>;
  initialSorting?: SortingState;
  /** The caller hands `data` already sorted (its own comparer, or a page of a sorted list); headers still toggle */
  manualSorting?: boolean;
  /** Render only the rows in view (thousands of rows): a fixed row height and a scrolling body */
  virtualize?: DataTableVirtualization;
  rowClassName?: (row: TData) => string | undefined;
  /** Shown in place of the table when there is no row */
  empty?: React.ReactNode;
  className?: string;
}

function ariaSort(header: Header<never, unknown>): 'ascending' | 'descending' | undefined {
  const sorted = header.column.getIsSorted();
  return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;
}

/** A header that sorts is a real button, so click, Enter and Space all work and focus shows */
function SortableHead<TData>({ header }: { header: Header<TData, unknown> }) {
  const direction = ariaSort(header as Header<never, unknown>);
  const right = header.column.columnDef.meta?.align === 'right';
  return (
    <TableHead scope="col" aria-sort={direction} className={cn('ui:p-0', right && 'ui:text-right')}>
      <button
        type="button"
        onClick={header.column.getToggleSortingHandler()}
        className={cn(
          'ui:inline-flex ui:w-full ui:cursor-pointer ui:items-center ui:gap-1 ui:px-3 ui:py-2 ui:font-medium ui:hover:text-foreground ui:focus-visible:outline-2 ui:focus-visible:outline-ring',
          right && 'ui:flex-row-reverse',
          direction && 'ui:text-foreground',
        )}
      >
        {flexRender(header.column.columnDef.header, header.getContext())}
        {/* The arrow is for the eye; screen readers hear aria-sort on the header */}
        <span aria-hidden="true">{SORT_ARROW[direction ?? 'none']}</span>
      </button>
    </TableHead>
  );
}

function DataRow<TData>({
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

/**
 * A sortable table over TanStack Table, in a sideways-scrolling frame. Sorting: a new column starts ascending, the
 * sorted one flips, one column at a time; `aria-sort` tells screen readers. With `virtualize` only the rows in view
 * (plus `overscan`) are in the DOM; `aria-rowcount`/`aria-rowindex` still give every row's place.
 */
export function DataTable<TData, TValue = unknown>({
  columns,
  data,
  label,
  scrollLabel,
  getRowId,
  sorting,
  onSortingChange,
  initialSorting,
  manualSorting = false,
  virtualize,
  rowClassName,
  empty,
  className,
}: DataTableProps<TData, TValue>) {
  const [ownSorting, setOwnSorting] = React.useState<SortingState>(initialSorting ?? []);
  const table = useReactTable({
    // TanStack's type asks for a mutable array; it never writes to it
    data: data as TData[],
    columns,
    ...(getRowId ? { getRowId } : {}),
    state: { sorting: sorting ?? ownSorting },
    onSortingChange: onSortingChange ?? setOwnSorting,
    getCoreRowModel: getCoreRowModel(),
    ...(manualSorting ? { manualSorting: true } : { getSortedRowModel: getSortedRowModel() }),
    sortDescFirst: false,
    enableSortingRemoval: false,
    enableMultiSort: false,
  });
  const scrollRef = React.useRef<HTMLElement>(null);
  const rows = table.getRowModel().rows;
  // Hooks run unconditionally; a table that is not virtualised leaves the virtualizer off (no scroll listeners)
  const virtualizer = useVirtualizer({
    enabled: Boolean(virtualize),
    count: virtualize ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => virtualize?.rowHeight ?? 0,
    overscan: virtualize?.overscan ?? 10,
    initialRect: { width: 0, height: virtualize?.height ?? 0 },
  });

  if (data.length === 0 && empty !== undefined) return <>{empty}</>;

  const colSpan = table.getVisibleLeafColumns().length;
  const headerGroups = table.getHeaderGroups();
  let body: React.ReactNode;
  if (virtualize) {
    const items = virtualizer.getVirtualItems();
    const before = items[0]?.start ?? 0;
    const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
    body = (
      <>
        {before > 0 && (
          // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer holding the height of rows not rendered
          <tr aria-hidden="true">
            <td colSpan={colSpan} style={{ height: before, padding: 0 }} />
          </tr>
        )}
        {items.map((item) => {
          const row = rows[item.index] as Row<TData>;
          return (
            <DataRow
              key={row.id}
              row={row}
              index={item.index + headerGroups.length + 1}
              className={rowClassName?.(row.original)}
              style={{ height: virtualize.rowHeight }}
            />
          );
        })}
        {after > 0 && (
          // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer holding the height of rows not rendered
          <tr aria-hidden="true">
            <td colSpan={colSpan} style={{ height: after, padding: 0 }} />
          </tr>
        )}
      </>
    );
  } else {
    body = rows.map((row) => <DataRow key={row.id} row={row} className={rowClassName?.(row.original)} />);
  }

  return (
    <ScrollRegion
      ref={scrollRef}
      label={scrollLabel ?? `${label} (scrolls sideways)`}
      className={cn(virtualize && 'ui:overflow-y-auto', className)}
      style={virtualize ? { maxHeight: virtualize.height } : undefined}
    >
      <Table aria-label={label} aria-rowcount={virtualize ? rows.length + headerGroups.length : undefined}>
        <TableHeader className={cn(virtualize && 'ui:sticky ui:top-0 ui:z-10 ui:bg-background')}>
          {headerGroups.map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) =>
                header.column.getCanSort() ? (
                  <SortableHead key={header.id} header={header} />
                ) : (
                  <TableHead
                    key={header.id}
                    scope="col"
                    className={cn(header.column.columnDef.meta?.align === 'right' && 'ui:text-right')}
                  >
                    {header.isPlaceholder
                      ? null
                      : flexRender(header.column.columnDef.header, header.getContext())}
                  </TableHead>
                ),
              )}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>{body}</TableBody>
      </Table>
    </ScrollRegion>
  );
}

export type { ColumnDef, SortingState } from '@tanstack/react-table';
