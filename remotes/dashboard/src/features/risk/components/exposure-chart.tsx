import type { Exposure } from '@kestrel/contracts';
import { formatUsdt } from '@kestrel/ui';

/**
 * Long and short notional per symbol as bars from a centre line (shorts left, longs right), scaled to the largest
 * side. Plain elements rather than a canvas: categories, not a time series, and the figures stay readable text
 */
export function ExposureChart({ exposure }: { exposure: readonly Exposure[] }) {
  if (exposure.length === 0) return <p className="db:text-sm db:text-muted-foreground">No open exposure</p>;
  const scale = Math.max(...exposure.flatMap((e) => [e.long, e.short]), 1);
  return (
    <figure className="db:flex db:flex-col db:gap-2">
      <ul className="db:flex db:flex-col db:gap-2" aria-label="Exposure by symbol">
        {exposure.map((e) => (
          <li
            key={e.symbol}
            className="db:grid db:grid-cols-[5.5rem_1fr] db:items-center db:gap-2 db:text-sm"
          >
            <span className="db:truncate db:font-medium">{e.symbol}</span>
            <div className="db:flex db:flex-col db:gap-1">
              <div className="db:grid db:grid-cols-2 db:items-center" aria-hidden="true">
                <div className="db:flex db:justify-end db:border-r db:border-border">
                  <div
                    className="db:h-3 db:rounded-l db:bg-destructive"
                    style={{ width: `${(e.short / scale) * 100}%` }}
                  />
                </div>
                <div className="db:flex db:justify-start">
                  <div
                    className="db:h-3 db:rounded-r db:bg-success"
                    style={{ width: `${(e.long / scale) * 100}%` }}
                  />
                </div>
              </div>
              <span className="db:font-mono db:text-xs db:tabular-nums db:text-muted-foreground">
                {e.long > 0 && `Long ${formatUsdt(e.long)}`}
                {e.long > 0 && e.short > 0 && ' · '}
                {e.short > 0 && `Short ${formatUsdt(e.short)}`}
                {e.long > 0 && e.short > 0 && ` · Net ${formatUsdt(e.net, { signed: true })}`}
              </span>
            </div>
          </li>
        ))}
      </ul>
      <figcaption className="db:text-xs db:text-muted-foreground">
        Notional in USDT at the mark price: shorts to the left, longs to the right
      </figcaption>
    </figure>
  );
}
