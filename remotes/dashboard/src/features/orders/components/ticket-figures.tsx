import type { OrderPreview } from '@kestrel/contracts';
import { formatPrice, formatUsdt } from '@kestrel/ui';
import { useSymbolConfig } from '../api/get-symbol-config';
import { isDecimal, multiplyDecimal } from '../lib/decimal';
import { MarginModeAction } from './margin-actions';
import { SymbolLeverageAction } from './position-actions';

// The ticket's figures beside the fields: the symbol's terms (margin mode, leverage) and what the order is worth

/**
 * What the order is worth (price × quantity: its limit price, or the last price for a market order), the margin it
 * takes at the symbol's leverage (Binance's initial margin: notional / leverage) and the estimated liquidation price
 * of the position it leaves, from the server's preview before anything is sent; until the preview answers, a limit
 * order's value from the figures typed
 */
export function OrderValue({
  quantity,
  price,
  quoteAsset = 'USDT',
  leverage,
  preview,
  pricePrecision,
}: {
  quantity: string;
  price: string;
  quoteAsset?: string | undefined;
  leverage: number | undefined;
  preview: OrderPreview | undefined;
  pricePrecision: number | undefined;
}) {
  const q = quantity.trim();
  const p = price.trim();
  const typed = isDecimal(q) && isDecimal(p) ? Number(multiplyDecimal(p, q)) : undefined;
  const value = preview ? Number(preview.notional) : typed;
  if (value === undefined) return null;
  const lev = preview?.leverage ?? leverage;
  const figure = (v: number) => (
    <span className="db:font-mono db:tabular-nums db:text-foreground">
      {formatUsdt(v)} {quoteAsset}
    </span>
  );
  return (
    <div className="db:text-sm db:text-muted-foreground" aria-live="polite">
      <p>
        Order value {figure(value)}
        {lev ? (
          <>
            {' '}
            · margin {figure(value / lev)} at {lev}x
          </>
        ) : null}
      </p>
      {preview && (
        <p data-figure="liquidation-estimate">
          Est. liquidation price{' '}
          <span className="db:font-mono db:tabular-nums db:text-foreground">
            {preview.liquidationPrice === null
              ? 'none'
              : formatPrice(Number(preview.liquidationPrice), { precision: pricePrecision })}
          </span>
          {Number(preview.positionAfter) === 0
            ? ' (the position would be flat)'
            : ` (${preview.marginType} margin, by Binance's formula)`}
        </p>
      )}
    </div>
  );
}

/** The account's margin mode and leverage for the ticket's symbol, the leverage changed from here */
export function SymbolTerms({ symbol }: { symbol: string }) {
  const config = useSymbolConfig(symbol, true);
  if (config.isPending) return null;
  if (config.isError) {
    return (
      <p className="db:text-xs db:text-muted-foreground">
        Leverage of {symbol} not known: {config.error.message}
      </p>
    );
  }
  const { marginType, leverage } = config.data;
  return (
    <p className="db:flex db:flex-wrap db:items-center db:gap-x-2 db:text-sm">
      <MarginModeAction symbol={symbol} marginType={marginType} />
      <span aria-hidden="true" className="db:text-muted-foreground">
        ·
      </span>
      <span className="db:text-muted-foreground">Leverage</span>
      <SymbolLeverageAction symbol={symbol} subject={symbol} leverage={leverage} />
    </p>
  );
}
