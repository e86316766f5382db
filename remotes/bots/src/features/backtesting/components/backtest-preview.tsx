import type { BacktestRequestInput } from '@kestrel/contracts/backtest';
import { Link } from '@kestrel/shared-runtime/router';
import { Button } from '@kestrel/ui';
import { useCreateBacktest } from '../api/create-backtest';
import { isActive, useBacktest } from '../api/get-backtest';
import { QuickFigures } from './quick-figures';

/**
 * A quick backtest of what is about to be saved, on recent data, when the user asks for it (each run is a job on
 * the server's queue, so it is not started on every change)
 */
export function BacktestPreview({ request }: { request: BacktestRequestInput }) {
  const create = useCreateBacktest();
  const run = useBacktest(create.data?.id ?? null);
  const shown = run.data ?? create.data ?? null;
  const running = create.isPending || (shown !== null && isActive(shown.status));
  return (
    <section
      aria-labelledby="bot-preview-title"
      className="bt:flex bt:flex-col bt:gap-3 bt:rounded-lg bt:border bt:border-border bt:p-3"
    >
      <div className="bt:flex bt:flex-wrap bt:items-center bt:justify-between bt:gap-2">
        <h3 id="bot-preview-title" className="bt:text-sm bt:font-semibold">
          Backtest preview
        </h3>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={running}
          onClick={() => create.mutate(request)}
        >
          {shown ? 'Run again' : 'Run a quick backtest'}
        </Button>
      </div>
      {!shown && !create.error && !create.isPending && (
        <p className="bt:text-sm bt:text-muted-foreground">
          How these settings would have done over the last 7 days of {request.symbol} {request.interval}, with
          the budget as starting balance. Past results do not promise future ones.
        </p>
      )}
      {(shown || create.error || create.isPending) && (
        <QuickFigures
          run={shown}
          error={create.error?.message ?? null}
          label="Backtest preview figures"
          note=", these parameters"
        />
      )}
      {shown && shown.status === 'completed' && (
        <Link
          to={`/backtesting?run=${encodeURIComponent(shown.id)}`}
          className="bt:text-sm bt:underline bt:underline-offset-4"
        >
          See the whole run in Backtesting
        </Link>
      )}
    </section>
  );
}
