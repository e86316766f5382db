import type { BinanceKeySetup } from '@kestrel/contracts';
import { useTradingEnvironment } from '@kestrel/shared-runtime/react';
import { Button, cn, Spinner } from '@kestrel/ui';
import { useKeySetup } from '../api/get-key-setup';

const POSITION_MODE_TEXT: Record<BinanceKeySetup['positionMode'], string> = {
  'one-way': 'One-way (one position per symbol)',
  hedge: 'Hedge (a long and a short per symbol)',
};

function facts(setup: BinanceKeySetup) {
  const { permissions: p } = setup;
  const allowed = [p.reading && 'Reading', p.futuresTrading && 'Futures trading'].filter(Boolean).join(', ');
  return [
    { term: 'Permissions', value: allowed || 'None', bad: !p.futuresTrading },
    {
      term: 'Withdrawals',
      // Kestrel refuses such keys on save and on its re-checks: this says why the key stopped opening positions
      value: p.withdrawals ? 'Enabled: Kestrel opens no position with this key' : 'Off',
      bad: p.withdrawals,
    },
    { term: 'IP restriction', value: p.ipRestricted ? 'On' : 'Off', bad: false },
    { term: 'Position mode', value: POSITION_MODE_TEXT[setup.positionMode], bad: false },
  ];
}

/** What the connected key may do and how the account holds positions, as the exchange says now */
export function KeySetupFacts() {
  const { currentEnvironment } = useTradingEnvironment();
  const setup = useKeySetup(currentEnvironment, true);
  if (setup.isPending) return <Spinner label="Reading the key's permissions…" />;
  if (setup.isError) {
    return (
      <div role="alert" className="xc:flex xc:flex-wrap xc:items-center xc:gap-2 xc:text-sm">
        <span className="xc:text-destructive">
          Could not read the key's permissions: {setup.error.message}
        </span>
        <Button size="sm" variant="outline" onClick={() => void setup.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  return (
    <dl aria-label="API key" className="xc:grid xc:grid-cols-[auto_1fr] xc:gap-x-3 xc:gap-y-1 xc:text-sm">
      {facts(setup.data).map((f) => (
        <div key={f.term} className="xc:contents">
          <dt className="xc:text-muted-foreground">{f.term}</dt>
          <dd className={cn('xc:min-w-0', f.bad && 'xc:text-destructive')}>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
