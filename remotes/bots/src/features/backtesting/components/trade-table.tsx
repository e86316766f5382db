import type { BacktestTrade } from '@kestrel/contracts';
import { Button } from '@kestrel/ui';
import { useState } from 'react';
import { figureClassName, toneClassName } from '../../../components/form-field';
import { ScrollRegion } from '../../../components/scroll-region';
import { formatDateTime, formatMoney, formatPrice, toneOf } from '../lib/format';

/** Rows rendered at first and added per "Show more": thousands of rows would stall the page for nothing */
export const TRADE_PAGE_SIZE = 25;

const EXIT_REASON_TEXT: Record<BacktestTrade['exitReason'], string> = {
  signal: 'Signal',
  'stop-loss': 'Stop loss',
  'take-profit': 'Take profit',
  'trailing-stop': 'Trailing stop',
  liquidation: 'Liquidation',
};

const th = 'bt:whitespace-nowrap bt:px-3 bt:py-2 bt:text-xs bt:font-medium bt:text-muted-foreground';
const td = 'bt:whitespace-nowrap bt:px-3 bt:py-1.5';

/** Closed round trips, first to last; net PnL green or red */
export function TradeTable({ trades, totalCount }: { trades: readonly BacktestTrade[]; totalCount: number }) {
  const [shown, setShown] = useState(TRADE_PAGE_SIZE);
  if (trades.length === 0) {
    return (
      <p className="bt:text-sm bt:text-muted-foreground">No trades: the strategy never entered a position.</p>
    );
  }
  const visible = trades.slice(0, shown);
  return (
    <div className="bt:flex bt:flex-col bt:gap-3">
      <ScrollRegion label="Trades (scrolls sideways)">
        <table className="bt:w-full bt:border-collapse bt:text-sm" aria-label="Trades">
          <thead>
            <tr className="bt:border-b bt:border-border">
              <th scope="col" className={`${th} bt:text-right`}>
                #
              </th>
              <th scope="col" className={`${th} bt:text-left`}>
                Side
              </th>
              <th scope="col" className={`${th} bt:text-left`}>
                Entry (UTC)
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Entry price
              </th>
              <th scope="col" className={`${th} bt:text-left`}>
                Exit (UTC)
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Exit price
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Quantity
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Fees
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Funding
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Net PnL
              </th>
              <th scope="col" className={`${th} bt:text-left`}>
                Exit reason
              </th>
            </tr>
          </thead>
          <tbody>
            {visible.map((trade) => (
              <tr key={trade.id} className="bt:border-b bt:border-border bt:last:border-0">
                <td className={`${td} ${figureClassName} bt:text-muted-foreground`}>{trade.id}</td>
                <td className={`${td} ${trade.side === 'long' ? 'bt:text-success' : 'bt:text-destructive'}`}>
                  {trade.side === 'long' ? 'Long' : 'Short'}
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
}
