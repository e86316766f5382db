import {
  cn,
  formatPercent,
  formatPrice,
  formatQuantity,
  NativeSelect,
  NO_VALUE,
  stepDecimals,
} from '@kestrel/ui';
import { memo, useMemo, useState } from 'react';
import {
  type BookRow,
  type BookSide,
  groupBook,
  groupingChoices,
  type Spread,
  spread,
} from '../lib/group-levels';
import { quoteAssetOf } from '../lib/symbol';
import { FeedPanel, type FeedStatus } from './feed-panel';
import { PriceButton, useStablePrice } from './price-button';

export interface OrderBookProps {
  symbol: string;
  /** Best first (descending), [price, quantity] as the exchange sends them */
  bids: readonly [string, string][];
  /** Best first (ascending) */
  asks: readonly [string, string][];
  /** The symbol's tick size as Binance sends it: "0.10" */
  tickSize: string;
  baseAsset: string;
  /** Buckets shown per side */
  rows?: number;
  status: FeedStatus;
  error?: string;
  /** A bucket's price was pressed (the ticket takes it): the bucket's price string, "64118.1" */
  onPrice?: (price: string) => void;
}

/*
 * Fixed table layout with the same widths on both tables, so the asks' and bids' columns line up. The depth bar
 * sits in the last cell (a cell is a containing block in every browser, a row is not) and is as wide as the row:
 * the cell's width over its share of the row
 */
const COLUMN_WIDTHS = ['db:w-[40%]', 'db:w-[30%]', 'db:w-[30%]'] as const;
const BAR_WIDTH = 'calc(100% / 0.3)';

/*
 * One row height for the whole book (`--book-row`, taller under a finger so prices are targets of 24 px), so a short
 * side's blank space is sized from it without measuring. The line height is the row's: a price button fills it
 */
const ROW_HEIGHT = 'db:[--book-row:1.25rem] db:pointer-coarse:[--book-row:1.5rem]';
const ROW = 'db:h-(--book-row)';
const CELL = 'db:px-1 db:py-0 db:whitespace-nowrap db:font-mono db:tabular-nums db:leading-(--book-row)';

const SIDE_TEXT: Record<BookSide, string> = { ask: 'db:text-destructive', bid: 'db:text-success' };
const SIDE_BAR: Record<BookSide, string> = {
  ask: 'db:bg-destructive/10 db:dark:bg-destructive/15',
  bid: 'db:bg-success/10 db:dark:bg-success/15',
};

interface LevelRowProps {
  side: BookSide;
  row: BookRow;
  priceDecimals: number;
  quantityDecimals: number;
  onPrice: ((price: string) => void) | undefined;
}

/*
 * Memoised on the row's own figures: grouping hands out new row objects on every push, so the comparison is by
 * value. A push that moves the best level re-renders the rows it changed, not all of them
 */
const LevelRow = memo(
  function LevelRow({ side, row, priceDecimals, quantityDecimals, onPrice }: LevelRowProps) {
    const text = formatPrice(Number(row.price), { precision: priceDecimals });
    return (
      <tr className={ROW}>
        <td className={cn(CELL, 'db:text-left')}>
          <PriceButton
            price={row.price}
            text={text}
            onPrice={onPrice}
            className={cn('db:w-full', SIDE_TEXT[side])}
          />
        </td>
        <td className={cn(CELL, 'db:text-right')}>
          {formatQuantity(Number(row.size), { precision: quantityDecimals })}
        </td>
        <td className={cn(CELL, 'db:relative db:text-right')}>
          {/* A transform, not a width: a moving bar repaints without laying the table out again */}
          <span
            aria-hidden="true"
            className={cn(
              'db:pointer-events-none db:absolute db:inset-y-0 db:right-0 db:-z-10',
              SIDE_BAR[side],
            )}
            style={{ width: BAR_WIDTH, transform: `scaleX(${row.share})`, transformOrigin: 'right' }}
          />
          {formatQuantity(Number(row.total), { precision: quantityDecimals })}
        </td>
      </tr>
    );
  },
  (a, b) =>
    a.side === b.side &&
    a.priceDecimals === b.priceDecimals &&
    a.quantityDecimals === b.quantityDecimals &&
    a.onPrice === b.onPrice &&
    a.row.price === b.row.price &&
    a.row.size === b.row.size &&
    a.row.total === b.row.total &&
    a.row.share === b.row.share,
);

interface SideTableProps {
  side: BookSide;
  rows: readonly BookRow[];
  /** Rows the side is shown with */
  length: number;
  heads: readonly string[];
  baseAsset: string;
  priceDecimals: number;
  quantityDecimals: number;
  onPrice: ((price: string) => void) | undefined;
}

/** One side's table; its column heads are for screen readers (the book shows one row of heads for both sides) */
function SideTable({
  side,
  rows,
  length,
  heads,
  baseAsset,
  priceDecimals,
  quantityDecimals,
  onPrice,
}: SideTableProps) {
  // Asks read worst at the top, so both sides' best prices meet at the spread
  const shown = side === 'ask' ? [...rows].reverse() : rows;
  // A short side keeps its place with blank space on the far side from the spread, so the spread line stays put
  const blank = Math.max(0, length - rows.length);
  const spacer = blank > 0 && <div style={{ height: `calc(${blank} * var(--book-row))` }} />;
  return (
    <>
      {side === 'ask' && spacer}
      {/* `isolate`: the depth bars (z -10) go under the figures but stay over the card */}
      <table
        aria-label={side === 'ask' ? 'Asks' : 'Bids'}
        className="db:isolate db:w-full db:table-fixed db:text-xs"
      >
        <thead>
          <tr>
            {heads.map((head, i) => (
              <th
                key={head}
                scope="col"
                className={cn(
                  COLUMN_WIDTHS[i],
                  'db:p-0 db:font-normal',
                  i === 0 ? 'db:text-left' : 'db:text-right',
                )}
              >
                <span className="db:sr-only">
                  {head}
                  {i === 2 && ` (${baseAsset})`}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <LevelRow
              key={row.price}
              side={side}
              row={row}
              priceDecimals={priceDecimals}
              quantityDecimals={quantityDecimals}
              onPrice={onPrice}
            />
          ))}
        </tbody>
      </table>
      {side === 'bid' && spacer}
    </>
  );
}

/** The line between the sides: the mid price, and the spread in price and as a share of the mid */
function SpreadLine({ gap, priceDecimals }: { gap: Spread | undefined; priceDecimals: number }) {
  const mid = gap
    ? formatPrice(Number(gap.mid), { precision: Math.max(priceDecimals, stepDecimals(gap.mid)) })
    : NO_VALUE;
  return (
    <div className="db:flex db:h-8 db:items-center db:justify-between db:gap-2 db:border-y db:border-border db:px-1 db:text-xs">
      <p className="db:min-w-0 db:truncate">
        <span className="db:text-muted-foreground">Mid </span>
        <span className="db:font-mono db:text-sm db:font-semibold db:tabular-nums">{mid}</span>
      </p>
      <p className="db:min-w-0 db:truncate db:text-muted-foreground">
        Spread{' '}
        <span className="db:font-mono db:tabular-nums db:text-foreground">
          {gap ? formatPrice(Number(gap.absolute), { precision: priceDecimals }) : NO_VALUE}
        </span>
        {gap && (
          <span className="db:font-mono db:tabular-nums">
            {' '}
            ({formatPercent(gap.percent / 100, { digits: 4 })})
          </span>
        )}
      </p>
    </div>
  );
}

/**
 * The order book, as on Binance: asks above (worst at the top), the spread, bids below, each side merged into
 * buckets of the chosen price step with its running total and a depth bar. Presentational: the caller feeds the
 * book and its status. A bucket's price is a button handing that price on (to the order ticket)
 */
export function OrderBook({
  symbol,
  bids,
  asks,
  tickSize,
  baseAsset,
  rows = 12,
  status,
  error,
  onPrice,
}: OrderBookProps) {
  // The grouping belongs to the symbol it was picked for: another symbol starts at one tick again
  const [grouping, setGrouping] = useState({ symbol, multiple: 1 });
  const multiple = grouping.symbol === symbol ? grouping.multiple : 1;
  const choices = useMemo(() => groupingChoices(tickSize), [tickSize]);
  const book = useMemo(
    () => groupBook({ bids, asks, tickSize, multiple, rows }),
    [bids, asks, tickSize, multiple, rows],
  );
  const gap = useMemo(() => spread(bids[0]?.[0], asks[0]?.[0]), [bids, asks]);
  const handlePrice = useStablePrice(onPrice);
  const priceDecimals = stepDecimals(tickSize);
  const quote = quoteAssetOf(symbol, baseAsset);
  const heads = [quote ? `Price (${quote})` : 'Price', `Size (${baseAsset})`, 'Total'];
  const side = {
    length: rows,
    heads,
    baseAsset,
    priceDecimals,
    quantityDecimals: book.quantityDecimals,
    onPrice: handlePrice,
  };

  return (
    <FeedPanel
      title="Order book"
      what="The order book"
      loading="Loading the order book…"
      status={status}
      error={error}
      empty={book.bids.length === 0 && book.asks.length === 0}
      emptyText="No orders on the book."
      staleText="Reconnecting… the book shown is not live."
      actions={
        <NativeSelect
          aria-label="Price grouping"
          value={String(multiple)}
          onChange={(e) => setGrouping({ symbol, multiple: Number(e.target.value) })}
          className="db:h-8 db:w-auto db:px-2 db:text-xs"
        >
          {choices.map((c) => (
            <option key={c.multiple} value={c.multiple}>
              {c.label}
            </option>
          ))}
        </NativeSelect>
      }
    >
      {() => (
        <div className={cn('db:flex db:flex-col', ROW_HEIGHT)}>
          {/* Seen, not read: each table names its own columns */}
          <div
            aria-hidden="true"
            className="db:grid db:h-5 db:grid-cols-[40%_30%_30%] db:text-xs db:leading-5 db:text-muted-foreground"
          >
            {heads.map((head, i) => (
              <span key={head} className={cn('db:truncate db:px-1', i > 0 && 'db:text-right')}>
                {head}
              </span>
            ))}
          </div>
          <SideTable side="ask" rows={book.asks} {...side} />
          <SpreadLine gap={gap} priceDecimals={priceDecimals} />
          <SideTable side="bid" rows={book.bids} {...side} />
        </div>
      )}
    </FeedPanel>
  );
}
