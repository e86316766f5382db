import type { AgentDecisionSummary } from '@kestrel/contracts/agents';
import { Badge, Button, cn, formatDateTime } from '@kestrel/ui';
import { actionLabel, outcomeLabel, probabilityText } from '../lib/agent-words';
import { decisiveProbability } from '../lib/contributions';
import { ReasonChips } from './reason-chips';

const ACTION_BADGES = {
  enter_long: 'success',
  enter_short: 'destructive',
  exit: 'warning',
  hold: 'outline',
} as const;

/**
 * Every closed bar's decision, newest first, holds included (each with its reasons). A line opens the bar's record;
 * the open one is marked (`aria-current`)
 */
export function DecisionTimeline({
  decisions,
  selected,
  onSelect,
  hasOlder,
  loadingOlder,
  onOlder,
}: {
  decisions: readonly AgentDecisionSummary[];
  selected: string | null;
  onSelect: (id: string) => void;
  hasOlder: boolean;
  loadingOlder: boolean;
  onOlder: () => void;
}) {
  return (
    <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-2">
      <ol aria-label="Decisions, newest first" className="bt:flex bt:flex-col bt:gap-1">
        {decisions.map((d) => {
          const { side, p } = decisiveProbability(d);
          const open = d.id === selected;
          return (
            <li key={d.id} data-action={d.action} data-outcome={d.outcome}>
              <button
                type="button"
                aria-current={open ? 'true' : undefined}
                title={d.note}
                onClick={() => onSelect(d.id)}
                className={cn(
                  'bt:flex bt:w-full bt:flex-col bt:gap-1 bt:rounded-md bt:border bt:px-3 bt:py-2 bt:text-left bt:text-sm bt:transition-colors hover:bt:bg-accent focus-visible:bt:outline-2 focus-visible:bt:outline-ring',
                  open ? 'bt:border-primary bt:bg-accent' : 'bt:border-border',
                )}
              >
                <span className="bt:flex bt:flex-wrap bt:items-center bt:gap-2">
                  <span className="bt:font-mono bt:text-xs bt:tabular-nums bt:text-muted-foreground">
                    {formatDateTime(d.barTime)}
                  </span>
                  <Badge variant={ACTION_BADGES[d.action]}>{actionLabel(d.action)}</Badge>
                  {d.outcome !== 'hold' && <span className="bt:text-xs">{outcomeLabel(d.outcome)}</span>}
                  <span className="bt:ml-auto bt:font-mono bt:text-xs bt:tabular-nums">
                    p({side}) {probabilityText(p)} / {probabilityText(d.threshold)}
                  </span>
                </span>
                <ReasonChips codes={d.reasonCodes} />
              </button>
            </li>
          );
        })}
      </ol>
      {hasOlder && (
        <Button
          size="sm"
          variant="outline"
          className="bt:self-start"
          disabled={loadingOlder}
          onClick={onOlder}
        >
          {loadingOlder ? 'Loading…' : 'Show older decisions'}
        </Button>
      )}
    </div>
  );
}
