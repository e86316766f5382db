import type { EntryProtectionRecord, SymbolInfo } from '@kestrel/contracts';
import { formatPrice } from '@kestrel/ui';
import { precisionOf } from '../lib/describe-action';

/** A failed one stays in view this long: long enough to be seen, not a permanent reproach */
const FAILED_SHOWN_MS = 24 * 3_600_000;

function triggers(p: EntryProtectionRecord, info: SymbolInfo | undefined): string {
  const at = (v: string) => formatPrice(Number(v), { precision: precisionOf(info).price });
  return [
    ...(p.takeProfit ? [`take-profit ${at(p.takeProfit)}`] : []),
    ...(p.stopLoss ? [`stop-loss ${at(p.stopLoss)}`] : []),
  ].join(' · ');
}

/**
 * The TP/SL attached to entries that are not among the open orders yet: waiting for their entry to fill (placed
 * by the server then), and those the exchange refused after the fill, whose position is not protected
 */
export function EntryProtections({
  protections,
  infoOf,
  now = Date.now(),
}: {
  protections: readonly EntryProtectionRecord[] | undefined;
  infoOf: (symbol: string) => SymbolInfo | undefined;
  now?: number;
}) {
  const shown = (protections ?? []).filter(
    (p) => p.state === 'waiting' || (p.state === 'failed' && now - p.updatedAt < FAILED_SHOWN_MS),
  );
  if (shown.length === 0) return null;
  return (
    <ul aria-label="TP/SL attached to entries" className="db:mt-3 db:flex db:flex-col db:gap-1 db:text-sm">
      {shown.map((p) => (
        <li
          key={p.id}
          data-state={p.state}
          className={p.state === 'failed' ? 'db:text-destructive' : undefined}
        >
          <span className="db:font-medium">{p.symbol}</span>{' '}
          <span className="db:font-mono db:tabular-nums">{triggers(p, infoOf(p.symbol))}</span>
          {p.state === 'waiting' ? (
            <span className="db:text-muted-foreground">
              {' '}
              — placed once order <span className="db:font-mono db:break-all">{p.entryClientOrderId}</span>{' '}
              fills
            </span>
          ) : (
            <span> — not placed: {p.detail}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
