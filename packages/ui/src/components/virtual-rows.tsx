import { useVirtualizer } from '@tanstack/react-virtual';
import type * as React from 'react';
import type { TableColumn, TableRow } from '../lib/table-model';
import { DataRow } from './data-row';
import type { DataTableVirtualization } from './data-table';

/**
 * The rows of a virtualised DataTable: only those in view (plus overscan) are in the DOM, with spacers holding the
 * height of the rest; `aria-rowindex` still gives every row's place. Loaded on demand by DataTable.
 */
export default function VirtualRows({
  rows,
  columns,
  scrollRef,
  virtualize,
  headerRowCount,
  rowClassName,
}: {
  rows: TableRow<unknown>[];
  columns: readonly TableColumn<unknown>[];
  scrollRef: React.RefObject<HTMLElement | null>;
  virtualize: DataTableVirtualization;
  headerRowCount: number;
  rowClassName: ((row: unknown) => string | undefined) | undefined;
}) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => virtualize.rowHeight,
    overscan: virtualize.overscan ?? 10,
    initialRect: { width: 0, height: virtualize.height },
  });
  const colSpan = columns.length;
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  return (
    <>
      {before > 0 && (
        // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer holding the height of rows not rendered
        <tr aria-hidden="true">
          <td colSpan={colSpan} style={{ height: before, padding: 0 }} />
        </tr>
      )}
      {items.map((item) => {
        const row = rows[item.index] as TableRow<unknown>;
        return (
          <DataRow
            key={row.id}
            row={row}
            columns={columns}
            index={item.index + headerRowCount + 1}
            className={rowClassName?.(row.original)}
            height={virtualize.rowHeight}
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
}
