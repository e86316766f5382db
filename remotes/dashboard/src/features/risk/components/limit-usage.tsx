import type { LimitUsage } from '@kestrel/contracts';
import { Badge, cn } from '@kestrel/ui';
import { LIMIT_LABELS, limitFigure, usageText } from '../lib/risk-words';

/** Each limit with the figure it is checked against and how much of it is used */
export function LimitUsageList({ usage }: { usage: readonly LimitUsage[] }) {
  return (
    <ul className="db:flex db:flex-col db:gap-3" aria-label="Limit usage">
      {usage.map((u) => {
        const used = Math.min(100, Math.max(0, u.usedPercent ?? 0));
        const tone = u.breached ? 'db:bg-destructive' : used >= 75 ? 'db:bg-warning' : 'db:bg-primary';
        return (
          <li key={u.name} className="db:flex db:flex-col db:gap-1">
            <div className="db:flex db:flex-wrap db:items-baseline db:justify-between db:gap-x-3 db:text-sm">
              <span className="db:font-medium">
                {LIMIT_LABELS[u.name]}{' '}
                {u.breached && (
                  <Badge variant="destructive" className="db:ml-1">
                    Breached
                  </Badge>
                )}
              </span>
              {/* Without a limit the current figure ("0×") reads as if it were the limit: show none */}
              {u.limit !== null && (
                <span className="db:font-mono db:tabular-nums db:text-muted-foreground">
                  {limitFigure(u.name, u.current)} of {limitFigure(u.name, u.limit)}
                </span>
              )}
            </div>
            {u.limit !== null && (
              <div className="db:h-1.5 db:overflow-hidden db:rounded-full db:bg-muted" aria-hidden="true">
                <div className={cn('db:h-full db:rounded-full', tone)} style={{ width: `${used}%` }} />
              </div>
            )}
            <span
              className={cn('db:text-xs', u.breached ? 'db:text-destructive' : 'db:text-muted-foreground')}
            >
              {usageText(u)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
