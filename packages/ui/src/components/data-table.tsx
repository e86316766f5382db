import {
  type ColumnDef,
  flexRender,
  getSortedRowModel,
  type Header,
  type OnChangeFn,
  type Row,
  type RowData,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import * as React from 'react';
import { cn } from '../lib/cn';
import { stableRowModel } from '../lib/stable-row-model';
import { DataRow } from './data-row';
import { ScrollRegion } from './scroll-region';
import { Table, TableBody, TableHead, TableHeader, TableRow } from './table';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Figures align right, their header with them */
    align?: 'left' | 'right';
    /** Classes of this column's cells, fixed or per row (a PnL's colour) */
    cellClassName?: string | ((row: TData) => string);
  }
}

const VirtualRows = React.lazy(() => import('./virtual-rows'));

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
    // Only new or changed items get a new row: not 10,000 again for a page of /history, nor 50 for a tick
    getCoreRowModel: stableRowModel,
    ...(manualSorting ? { manualSorting: true } : { getSortedRowModel: getSortedRowModel() }),
    sortDescFirst: false,
    enableSortingRemoval: false,
    enableMultiSort: false,
  });
  const scrollRef = React.useRef<HTMLElement>(null);
  const rows = table.getRowModel().rows;

  if (data.length === 0 && empty !== undefined) return <>{empty}</>;

  const colSpan = table.getVisibleLeafColumns().length;
  const headerGroups = table.getHeaderGroups();
  let body: React.ReactNode;
  if (virtualize) {
    body = (
      // The virtualizer is its own chunk: only pages with thousands of rows (/history) load it
      <React.Suspense fallback={null}>
        <VirtualRows
          rows={rows as Row<unknown>[]}
          scrollRef={scrollRef}
          virtualize={virtualize}
          colSpan={colSpan}
          headerRowCount={headerGroups.length}
          rowClassName={rowClassName as ((row: unknown) => string | undefined) | undefined}
        />
      </React.Suspense>
    );
  } else {
    body = rows.map((row) => (
      <DataRow
        key={row.id}
        original={row.original}
        cells={row.getVisibleCells()}
        className={rowClassName?.(row.original)}
      />
    ));
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
