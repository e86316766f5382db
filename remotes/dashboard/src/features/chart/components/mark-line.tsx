import { useLiveMarkPrices } from '@kestrel/shared-runtime/react';
import { formatPercent, formatPrice, NO_VALUE } from '@kestrel/ui';
import { useEffect, useMemo, useState } from 'react';
import { countdown, markInfo } from '../lib/funding';

/** Re-renders once a second while mounted (the funding countdown) */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function FundingCountdown({ until }: { until: number }) {
  return <>{countdown(until, useNow())}</>;
}

/**
 * The symbol's mark price (what PnL and liquidation are computed on) and funding: the rate, and the time left until
 * it is charged. From the live mark-price pushes; a dash until the first one arrives
 */
export function MarkLine({ symbol, pricePrecision }: { symbol: string; pricePrecision: number | undefined }) {
  const symbols = useMemo(() => [symbol], [symbol]);
  const info = markInfo(useLiveMarkPrices(symbols).get(symbol));
  const rate = info?.fundingRate;
  return (
    <p className="db:flex db:flex-wrap db:gap-x-4 db:text-xs db:text-muted-foreground">
      <span>
        Mark{' '}
        <span className="db:font-mono db:tabular-nums db:text-foreground">
          {info ? formatPrice(info.markPrice, { precision: pricePrecision }) : NO_VALUE}
        </span>
      </span>
      <span>
        Funding {/* Not coloured: a positive rate is a cost to longs and an income to shorts */}
        <span className="db:font-mono db:tabular-nums db:text-foreground">
          {formatPercent(rate, { signed: true, digits: 4 })}
        </span>
        {info?.nextFundingTime !== undefined && (
          <>
            {' '}
            in{' '}
            <span className="db:font-mono db:tabular-nums db:text-foreground">
              <FundingCountdown until={info.nextFundingTime} />
            </span>
          </>
        )}
      </span>
    </p>
  );
}
