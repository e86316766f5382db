import type { AgentRiskLine } from '@kestrel/contracts/agents';
import { cn, formatQuantity } from '@kestrel/ui';
import { riskLineLabel, riskLineUnit } from '../lib/agent-words';

const amount = (v: number, unit: string) =>
  unit === '%'
    ? `${formatQuantity(v, { precision: 2 })} %`
    : unit === '×'
      ? `${formatQuantity(v, { precision: 0 })}×`
      : `${formatQuantity(v, { precision: 2 })} ${unit}`;

/** Each of the agent's limits with its figure now: a bar of how much of it is used (none: "no limit") */
export function RiskPanel({ lines }: { lines: readonly AgentRiskLine[] }) {
  if (lines.length === 0) {
    return <p className="bt:text-sm bt:text-muted-foreground">No risk figures yet: the agent has not run.</p>;
  }
  return (
    <ul aria-label="Risk against limits" className="bt:grid bt:grid-cols-1 bt:gap-3 bt:sm:grid-cols-2">
      {lines.map((line) => {
        const unit = riskLineUnit(line.name);
        const used = line.usedPercent === null ? null : Math.min(100, Math.max(0, line.usedPercent));
        return (
          <li key={line.name} data-risk={line.name} className="bt:flex bt:flex-col bt:gap-1 bt:text-sm">
            <div className="bt:flex bt:flex-wrap bt:justify-between bt:gap-2">
              <span className="bt:font-medium">{riskLineLabel(line.name)}</span>
              <span className={cn('bt:font-mono bt:tabular-nums', line.breached && 'bt:text-destructive')}>
                {amount(line.current, unit)}
                {line.limit === null ? ' · no limit' : ` of ${amount(line.limit, unit)}`}
                {line.breached ? ' · breached' : ''}
              </span>
            </div>
            {used !== null && (
              // biome-ignore lint/a11y/useSemanticElements: a styled bar coloured by how close the limit is; <meter> is styled differently in every browser
              <div
                role="meter"
                aria-label={`${riskLineLabel(line.name)} used`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(used)}
                aria-valuetext={`${Math.round(used)} % of the limit`}
                className="bt:h-2 bt:w-full bt:overflow-hidden bt:rounded-full bt:bg-muted"
              >
                <div
                  className={cn(
                    'bt:h-full',
                    line.breached || used >= 90
                      ? 'bt:bg-destructive'
                      : used >= 70
                        ? 'bt:bg-warning'
                        : 'bt:bg-success',
                  )}
                  style={{ width: `${used}%` }}
                />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
