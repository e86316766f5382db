import { cn, formatPrice, formatQuantity } from '@kestrel/ui';
import { memo, useMemo } from 'react';
import { fractionDigits } from '../lib/decimal';
import { formatTradeTime, latestTrades, type TapeTrade, takerSide } from '../lib/tape';
import { FeedPanel, type FeedStatus } from './feed-panel';
import { PriceButton, useStablePrice } from './price-button';

export type { TapeTrade } from '../lib/tape';

export interface TradesTapeProps {
  /** In any order: the tape shows the newest first */
  trades: readonly TapeTrade[];
  /** Decimals of the symbol's prices (from its tick size) */
  pricePrecision: number;
  baseAsset: string;
  /** Trades shown */
  rows?: number;
  status: FeedStatus;
  error?: string;
  /** A trade's price was pressed (the ticket takes it): the exchange's price string */
  onPrice?: (price: string) => void;
}

// Taller under a finger, so each price is a target of 24 px
const ROW = 'db:h-5 db:pointer-coarse:h-6';
const CELL =
  'db:px-1 db:py-0 db:whitespace-nowrap db:font-mono db:tabular-nums db:leading-5 db:pointer-coarse:leading-6';
const HEAD = 'db:truncate db:px-1 db:py-0 db:font-medium db:text-muted-foreground';

interface TradeRowProps {
  price: string;
  quantity: string;
  buyerMaker: boolean;
  time: number;
  pricePrecision: number;
  onPrice: ((price: string) => void) | undefined;
}

/** Memoised on primitives: a push adds rows at the top and leaves the others as they were */
const TradeRow = memo(function TradeRow({
  price,
  quantity,
  buyerMaker,
  time,
  pricePrecision,
  onPrice,
}: TradeRowProps) {
  const side = takerSide({ buyerMaker });
  const text = formatPrice(Number(price), { precision: pricePrecision });
  return (
    <tr className={ROW}>
      <td className={cn(CELL, 'db:text-left')}>
        <PriceButton
          price={price}
          text={text}
          onPrice={onPrice}
          className={cn('db:w-full', side === 'Sell' ? 'db:text-destructive' : 'db:text-success')}
        />
        {/* Colour is not the only sign of the side: screen readers hear it */}
        <span className="db:sr-only"> {side}</span>
      </td>
      <td className={cn(CELL, 'db:text-right')}>
        {/* The decimals the exchange wrote it with: its lot precision */}
        {formatQuantity(Number(quantity), { precision: fractionDigits(quantity) })}
      </td>
      <td className={cn(CELL, 'db:text-right db:text-muted-foreground')}>{formatTradeTime(time)}</td>
    </tr>
  );
});

/**
 * The latest trades of the symbol, newest first: price coloured by the taker's side (a sell red, a buy green),
 * size and UTC time. Presentational: the caller feeds the trades and their status. A price is a button handing it
 * on (to the order ticket)
 */
export function TradesTape({
  trades,
  pricePrecision,
  baseAsset,
  rows = 20,
  status,
  error,
  onPrice,
}: TradesTapeProps) {
  const shown = useMemo(() => latestTrades(trades, rows), [trades, rows]);
  const handlePrice = useStablePrice(onPrice);
  return (
    <FeedPanel
      title="Recent trades"
      what="Recent trades"
      loading="Loading recent trades…"
      status={status}
      error={error}
      empty={shown.length === 0}
      emptyText="No trades yet."
      staleText="Reconnecting… these trades are not live."
    >
      {(titleId) => (
        <table aria-labelledby={titleId} className="db:w-full db:table-fixed db:text-xs">
          <thead>
            <tr className="db:h-5">
              <th scope="col" className={cn(HEAD, 'db:w-[40%] db:text-left')}>
                Price
              </th>
              <th scope="col" className={cn(HEAD, 'db:w-[30%] db:text-right')}>
                Size ({baseAsset})
              </th>
              <th scope="col" className={cn(HEAD, 'db:w-[30%] db:text-right')}>
                Time (UTC)
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((t) => (
              <TradeRow
                key={t.id}
                price={t.price}
                quantity={t.quantity}
                buyerMaker={t.buyerMaker}
                time={t.time}
                pricePrecision={pricePrecision}
                onPrice={handlePrice}
              />
            ))}
          </tbody>
        </table>
      )}
    </FeedPanel>
  );
}
