import type { BacktestTrade } from '@kestrel/contracts';
import { Button } from '@kestrel/ui';
import { memo, useMemo, useState } from 'react';
import { figureClassName, toneClassName } from '../../../components/figures';
import { ScrollRegion } from '../../../components/scroll-region';
import { formatDateTime, formatMoney, formatPrice, toneOf } from '../lib/format';
import {
  DEFAULT_TRADE_SORT,
  EXIT_REASON_TEXT,
  nextTradeSort,
  SIDE_TEXT,
  sortTrades,
  type TradeColumn,
  type TradeSort,
} from '../lib/trade-sort';

/** Rows rendered at first and added per "Show more": thousands of rows would stall the page for nothing */
export const TRADE_PAGE_SIZE = 25;

const HEADERS: readonly { column: TradeColumn; label: string; align: 'left' | 'right' }[] = [
  { column: 'id', label: '#', align: 'right' },
  { column: 'side', label: 'Side', align: 'left' },
  { column: 'entryTime', label: 'Entry (UTC)', align: 'left' },
  { column: 'entryPrice', label: 'Entry price', align: 'right' },
  { column: 'exitTime', label: 'Exit (UTC)', align: 'left' },
  { column: 'exitPrice', label: 'Exit price', align: 'right' },
  { column: 'quantity', label: 'Quantity', align: 'right' },
  { column: 'fees', label: 'Fees', align: 'right' },
  { column: 'funding', label: 'Funding', align: 'right' },
  { column: 'pnl', label: 'Net PnL', align: 'right' },
  { column: 'exitReason', label: 'Exit reason', align: 'left' },
];

/** The visible mark of a header's order; an unsorted column shows it can be sorted */
const SORT_ARROW = { ascending: '▲', descending: '▼', none: '↕' } as const;

const th = 'bt:whitespace-nowrap bt:p-0 bt:text-xs bt:font-medium bt:text-muted-foreground';
const td = 'bt:whitespace-nowrap bt:px-3 bt:py-1.5';

/** A column header that sorts: a real button, so click, Enter and Space all work and focus shows */
function SortHeader({
  label,
  align,
  direction,
  onSort,
}: {
  label: string;
  align: 'left' | 'right';
  direction: TradeSort['direction'] | undefined;
  onSort: () => void;
}) {
  return (
    <th
      scope="col"
      aria-sort={direction}
      className={`${th} ${align === 'right' ? 'bt:text-right' : 'bt:text-left'}`}
    >
      <button
        type="button"
        onClick={onSort}
        className={`bt:inline-flex bt:w-full bt:items-center bt:gap-1 bt:px-3 bt:py-2 bt:font-medium bt:hover:text-foreground bt:focus-visible:outline-2 bt:focus-visible:outline-ring ${
          align === 'right' ? 'bt:flex-row-reverse' : ''
        } ${direction ? 'bt:text-foreground' : ''}`}
      >
        {label}
        {/* The arrow is for the eye; screen readers hear aria-sort on the header */}
        <span aria-hidden="true">{SORT_ARROW[direction ?? 'none']}</span>
      </button>
    </th>
  );
}

/** Closed round trips, first to last until a header sorts them; net PnL green or red */
export const TradeTable = memo(function TradeTable({
  trades,
  totalCount,
}: {
  trades: readonly BacktestTrade[];
  totalCount: number;
}) {
  const [shown, setShown] = useState(TRADE_PAGE_SIZE);
  const [sort, setSort] = useState<TradeSort>(DEFAULT_TRADE_SORT);
  // Up to BACKTEST_MAX_TRADES rows: sorted again only when the trades or the order change, not on "Show more"
  const sorted = useMemo(() => sortTrades(trades, sort), [trades, sort]);
  if (trades.length === 0) {
    return (
      <p className="bt:text-sm bt:text-muted-foreground">No trades: the strategy never entered a position.</p>
    );
  }
  const visible = sorted.slice(0, shown);
  return (
    <div className="bt:flex bt:flex-col bt:gap-3">
      <ScrollRegion label="Trades (scrolls sideways)">
        <table className="bt:w-full bt:border-collapse bt:text-sm" aria-label="Trades">
          <thead>
            <tr className="bt:border-b bt:border-border">
              {HEADERS.map(({ column, label, align }) => (
                <SortHeader
                  key={column}
                  label={label}
                  align={align}
                  direction={sort.column === column ? sort.direction : undefined}
                  onSort={() => setSort((current) => nextTradeSort(current, column))}
                />
              ))}
            </tr>
          </thead>
          <tbody>
            {visible.map((trade) => (
              <tr key={trade.id} className="bt:border-b bt:border-border bt:last:border-0">
                <td className={`${td} ${figureClassName} bt:text-muted-foreground`}>{trade.id}</td>
                <td className={`${td} ${trade.side === 'long' ? 'bt:text-success' : 'bt:text-destructive'}`}>
                  {SIDE_TEXT[trade.side]}
                </td>
                <td className={`${td} bt:font-mono bt:tabular-nums`}>{formatDateTime(trade.entryTime)}</td>
                <td className={`${td} ${figureClassName}`}>{formatPrice(trade.entryPrice)}</td>
                <td className={`${td} bt:font-mono bt:tabular-nums`}>{formatDateTime(trade.exitTime)}</td>
                <td className={`${td} ${figureClassName}`}>{formatPrice(trade.exitPrice)}</td>
                <td className={`${td} ${figureClassName}`}>{trade.quantity}</td>
                <td className={`${td} ${figureClassName}`}>{formatMoney(trade.fees)}</td>
                <td className={`${td} ${figureClassName}`}>{formatMoney(trade.funding)}</td>
                <td className={`${td} ${figureClassName} bt:font-medium ${toneClassName(toneOf(trade.pnl))}`}>
                  {formatMoney(trade.pnl, { signed: true })}
                </td>
                <td className={td}>{EXIT_REASON_TEXT[trade.exitReason]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <div className="bt:flex bt:flex-wrap bt:items-center bt:justify-between bt:gap-2 bt:text-xs bt:text-muted-foreground">
        <span>
          Showing {visible.length} of {totalCount} trades
          {totalCount > trades.length ? ` (the first ${trades.length} are kept)` : ''}
        </span>
        {shown < trades.length && (
          <Button variant="outline" size="sm" onClick={() => setShown((n) => n + TRADE_PAGE_SIZE)}>
            Show {Math.min(TRADE_PAGE_SIZE, trades.length - shown)} more
          </Button>
        )}
      </div>
    </div>
  );
});
