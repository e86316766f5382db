import { Button, EmptyState, Spinner } from '@kestrel/ui';
import { type ColumnDef, DataTable, type SortingState } from '@kestrel/ui/table';
import type * as React from 'react';
import { useCallback, useEffect, useRef } from 'react';

/** One line per row: the virtualiser needs a fixed height */
export const HISTORY_ROW_HEIGHT = 33;
/** Height of the scrolling body: about 15 rows */
export const HISTORY_TABLE_HEIGHT = 520;
/** The next page is asked for when the view is this close to the last loaded row */
const LOAD_AHEAD_PX = HISTORY_ROW_HEIGHT * 40;

export interface HistoryTableProps<T> {
  label: string;
  columns: ColumnDef<T, unknown>[];
  rows: readonly T[];
  getRowId: (row: T) => string;
  /** The server's order (one column) */
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
  status: 'pending' | 'error' | 'success';
  error?: string;
  onRetry: () => void;
  /** What the empty state says ("No trades in this range") */
  emptyTitle: string;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
  /** Changes with the filter and order: the view goes back to the first row */
  resetKey: string;
}

/**
 * A tab's table: loading, error and empty states, then the rows loaded so far, virtualised (only the rows in view
 * are in the DOM), asking the server for the next page as the view nears the end. Headers sort on the server
 */
export function HistoryTable<T>({
  label,
  columns,
  rows,
  getRowId,
  sorting,
  onSortingChange,
  status,
  error,
  onRetry,
  emptyTitle,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  resetKey,
}: HistoryTableProps<T>) {
  const wrapper = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the filter or order changes, on purpose
  useEffect(() => {
    const frame = wrapper.current?.querySelector('[data-slot="scroll-region"]');
    if (frame) frame.scrollTop = 0;
  }, [resetKey]);
  // Scroll events do not bubble; the capture phase sees the table's own scrolling frame
  const onScroll = useCallback(
    (event: React.UIEvent<HTMLDivElement>) => {
      const frame = event.target as HTMLElement;
      const left = frame.scrollHeight - frame.scrollTop - frame.clientHeight;
      if (left < LOAD_AHEAD_PX && hasNextPage && !isFetchingNextPage) fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );

  if (status === 'pending') return <Spinner label={`Loading ${label.toLowerCase()}…`} className="db:py-12" />;
  if (status === 'error' && rows.length === 0) {
    return (
      <EmptyState
        title={`Could not load ${label.toLowerCase()}`}
        description={error}
        action={
          <Button variant="outline" onClick={onRetry}>
            Retry
          </Button>
        }
      />
    );
  }
  return (
    <div ref={wrapper} onScrollCapture={onScroll} className="db:flex db:min-w-0 db:flex-col db:gap-2">
      <DataTable
        label={label}
        columns={columns}
        data={rows}
        getRowId={getRowId}
        manualSorting
        sorting={sorting}
        onSortingChange={onSortingChange}
        virtualize={{ rowHeight: HISTORY_ROW_HEIGHT, height: HISTORY_TABLE_HEIGHT, overscan: 12 }}
        empty={<EmptyState title={emptyTitle} description="Pick a longer range or clear a filter." />}
      />
      {isFetchingNextPage && (
        <p role="status" className="db:text-xs db:text-muted-foreground">
          Loading more…
        </p>
      )}
    </div>
  );
}
