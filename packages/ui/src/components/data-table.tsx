import * as React from 'react';
import { cn } from '../lib/cn';
import {
  type ColumnDef,
  followRows,
  resolveColumns,
  type SortingState,
  sortRows,
  type TableColumn,
  type TableRow as TableRowModel,
  toggleSorting,
} from '../lib/table-model';
import { DataRow } from './data-row';
import { ScrollRegion } from './scroll-region';
import { Table, TableBody, TableHead, TableHeader, TableRow } from './table';

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
  onSortingChange?: (sorting: SortingState) => void;
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

/** A header that sorts is a real button, so click, Enter and Space all work and focus shows */
function SortableHead<TData>({
  column,
  sorting,
  onSort,
}: {
  column: TableColumn<TData>;
  sorting: SortingState;
  onSort: (columnId: string) => void;
}) {
  const entry = sorting[0]?.id === column.id ? sorting[0] : undefined;
  const direction = entry ? (entry.desc ? 'descending' : 'ascending') : undefined;
  const right = column.def.meta?.align === 'right';
  return (
    <TableHead scope="col" aria-sort={direction} align={right ? 'right' : 'left'} flush>
      <button
        type="button"
        onClick={() => onSort(column.id)}
        className={cn(
          'ui:inline-flex ui:w-full ui:cursor-pointer ui:items-center ui:gap-1 ui:px-3 ui:py-2 ui:font-medium ui:hover:text-foreground ui:focus-visible:outline-2 ui:focus-visible:outline-ring',
          right && 'ui:flex-row-reverse',
          direction && 'ui:text-foreground',
        )}
      >
        <HeaderContent column={column} />
        {/* The arrow is for the eye; screen readers hear aria-sort on the header */}
        <span aria-hidden="true">{SORT_ARROW[direction ?? 'none']}</span>
      </button>
    </TableHead>
  );
}

/** A string header as text, a function one as a component (as TanStack's flexRender: it may use hooks) */
function HeaderContent<TData>({ column }: { column: TableColumn<TData> }) {
  const Header = column.def.header;
  if (typeof Header === 'function') return <Header />;
  return <>{Header ?? column.id}</>;
}

/**
 * A sortable table (columns in TanStack Table's shape: `lib/table-model.ts`), in a sideways-scrolling frame.
 * Sorting: a new column starts ascending, the sorted one flips, one column at a time; `aria-sort` tells screen
 * readers. With `virtualize` only the rows in view (plus `overscan`) are in the DOM; `aria-rowcount`/`aria-rowindex`
 * still give every row's place.
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
  const order = sorting ?? ownSorting;
  const onSort = (columnId: string) => (onSortingChange ?? setOwnSorting)(toggleSorting(order, columnId));
  const resolved = React.useMemo(() => resolveColumns(columns), [columns]);
  // Only new or changed items get a new row: not 10,000 again for a page of /history, nor 50 for a tick. Kept in a
  // ref and brought up to date during render: the rows follow `data` alone, so a render React throws away and
  // repeats computes the same rows again (as TanStack's own row model did)
  const followed = React.useRef<{ data: readonly TData[]; rows: TableRowModel<TData>[] }>({
    data: [],
    rows: [],
  });
  if (followed.current.data !== data) {
    followed.current = { data, rows: followRows(followed.current, data, getRowId) };
  }
  const unsorted = followed.current.rows;
  const rows = React.useMemo(
    () => (manualSorting ? unsorted : sortRows(unsorted, resolved, order)),
    [manualSorting, unsorted, resolved, order],
  );
  const scrollRef = React.useRef<HTMLElement>(null);

  if (data.length === 0 && empty !== undefined) return <>{empty}</>;

  let body: React.ReactNode;
  if (virtualize) {
    body = (
      // The virtualizer is its own chunk: only pages with thousands of rows (/history) load it
      <React.Suspense fallback={null}>
        <VirtualRows
          rows={rows as TableRowModel<unknown>[]}
          columns={resolved as TableColumn<unknown>[]}
          scrollRef={scrollRef}
          virtualize={virtualize}
          headerRowCount={1}
          rowClassName={rowClassName as ((row: unknown) => string | undefined) | undefined}
        />
      </React.Suspense>
    );
  } else {
    body = rows.map((row) => (
      <DataRow key={row.id} row={row} columns={resolved} className={rowClassName?.(row.original)} />
    ));
  }

  return (
    <ScrollRegion
      ref={scrollRef}
      label={scrollLabel ?? `${label} (scrolls sideways)`}
      className={cn(virtualize && 'ui:overflow-y-auto', className)}
      style={virtualize ? { maxHeight: virtualize.height } : undefined}
    >
      <Table aria-label={label} aria-rowcount={virtualize ? rows.length + 1 : undefined}>
        <TableHeader className={cn(virtualize && 'ui:sticky ui:top-0 ui:z-10 ui:bg-background')}>
          <TableRow>
            {resolved.map((column) =>
              column.canSort ? (
                <SortableHead key={column.id} column={column} sorting={order} onSort={onSort} />
              ) : (
                <TableHead key={column.id} scope="col" align={column.def.meta?.align}>
                  <HeaderContent column={column} />
                </TableHead>
              ),
            )}
          </TableRow>
        </TableHeader>
        <TableBody>{body}</TableBody>
      </Table>
    </ScrollRegion>
  );
}

export type { ColumnDef, ColumnMeta, SortingState } from '../lib/table-model';
