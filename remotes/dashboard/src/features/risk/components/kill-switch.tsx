import type { KillSwitchResult } from '@kestrel/contracts';
import { Button } from '@kestrel/ui';
import { ConfirmDialog } from '@kestrel/ui/dialog';
import { useState } from 'react';
import { killSwitchPlan, killSwitchSummary } from '../lib/risk-words';

/**
 * The kill switch: a destructive button, a confirmation saying exactly what will happen, then every outcome.
 * Counts are the page's latest figures; the server acts on what is open when it runs
 */
export function KillSwitch({
  openOrders,
  openPositions,
  runningBots,
  onConfirm,
  pending,
  result,
  error,
}: {
  openOrders: number;
  openPositions: number;
  /** Names of the user's running bots (paper and live, every environment): the switch stops them first */
  runningBots: readonly string[];
  onConfirm: () => void;
  pending: boolean;
  result: KillSwitchResult | undefined;
  error: string | undefined;
}) {
  const [open, setOpen] = useState(false);
  const plan = killSwitchPlan(openOrders, openPositions, runningBots);
  return (
    <div className="db:flex db:flex-col db:gap-3">
      <div>
        <Button variant="destructive" onClick={() => setOpen(true)} disabled={pending}>
          {pending ? 'Stopping everything…' : 'Kill switch'}
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Stop all trading?"
        description={plan}
        tone="note"
        cancelLabel="Keep trading"
        confirmLabel="Cancel orders and close positions"
        destructive
        onConfirm={onConfirm}
      >
        <p className="db:text-sm db:text-muted-foreground">
          {runningBots.length > 0
            ? 'Your running bots stop first (paper and live, on every environment), so none places an order meanwhile. '
            : 'No bot is running. '}
          Then every open order is canceled, conditional orders too, and every position is closed with a
          reduce-only market order, which fills at the market price.
        </p>
      </ConfirmDialog>
      {error && (
        <p role="alert" className="db:text-sm db:text-destructive">
          The kill switch failed: {error}
        </p>
      )}
      {result && <KillSwitchOutcome result={result} />}
    </div>
  );
}

function KillSwitchOutcome({ result }: { result: KillSwitchResult }) {
  const summary = killSwitchSummary(result);
  return (
    <div role="status" className="db:flex db:flex-col db:gap-2 db:text-sm">
      <p className={result.failed > 0 ? 'db:font-medium db:text-destructive' : 'db:font-medium'}>{summary}</p>
      <ul className="db:flex db:flex-col db:gap-1 db:text-xs" aria-label="Kill switch outcomes">
        {result.orders.map((o) => (
          <li key={`order-${o.orderId}`}>
            {o.ok ? 'Canceled' : 'Not canceled'} {o.kind === 'conditional' ? 'conditional order' : 'order'}{' '}
            {o.orderId} ({o.symbol}){o.error ? `: ${o.error}` : ''}
          </li>
        ))}
        {result.positions.map((p) => (
          <li key={`position-${p.symbol}-${p.positionSide}`}>
            {p.ok ? 'Closed' : 'Not closed'} {p.symbol} position of {p.amount.replace('-', '')}
            {Number(p.amount) < 0 ? ' short' : ' long'}
            {p.error ? `: ${p.error}` : ''}
          </li>
        ))}
        {result.errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}
