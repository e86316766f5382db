import type { BacktestSummary } from '@kestrel/contracts/backtest';
import { Button, Card, CardContent } from '@kestrel/ui';

const STATUS_TEXT = { queued: 'Queued', running: 'Running' } as const;

/** The running run's progress bar (0..100 %), with a way to stop it */
export function RunProgress({
  run,
  onCancel,
  canceling,
}: {
  run: BacktestSummary;
  onCancel: () => void;
  canceling: boolean;
}) {
  const percent = Math.round(run.progress * 100);
  const status = run.status === 'queued' || run.status === 'running' ? STATUS_TEXT[run.status] : run.status;
  return (
    <Card>
      <CardContent className="bt:flex bt:flex-col bt:gap-3">
        <div className="bt:flex bt:flex-wrap bt:items-center bt:justify-between bt:gap-2">
          <p className="bt:text-sm">
            <span className="bt:font-medium">{status}</span>{' '}
            <span className="bt:text-muted-foreground">
              {run.strategyName} · {run.symbol} {run.interval}
            </span>
          </p>
          <div className="bt:flex bt:items-center bt:gap-3">
            <span className="bt:font-mono bt:text-sm bt:tabular-nums" aria-hidden="true">
              {percent}%
            </span>
            <Button variant="outline" size="sm" onClick={onCancel} disabled={canceling}>
              {canceling ? 'Canceling…' : 'Cancel'}
            </Button>
          </div>
        </div>
        <div
          role="progressbar"
          aria-label="Backtest progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${status}, ${percent}%`}
          className="bt:h-2 bt:w-full bt:overflow-hidden bt:rounded-full bt:bg-muted"
        >
          <div
            className="bt:h-full bt:rounded-full bt:bg-primary bt:transition-[width] bt:duration-200"
            style={{ width: `${percent}%` }}
          />
        </div>
      </CardContent>
    </Card>
  );
}
