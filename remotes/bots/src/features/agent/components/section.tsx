import { Card, CardContent, CardDescription, CardHeader, cn } from '@kestrel/ui';
import { type QueryLike, QueryState as UiQueryState } from '@kestrel/ui/panel';
import type { ReactNode } from 'react';

/** One part of the agent page: a card named by its heading (a region a screen reader can jump to) */
export function AgentSection({
  id,
  title,
  description,
  actions,
  className,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const titleId = `agent-${id}-title`;
  return (
    <Card
      role="region"
      aria-labelledby={titleId}
      data-agent-section={id}
      className={cn('bt:min-w-0', className)}
    >
      <CardHeader className="bt:flex bt:flex-row bt:flex-wrap bt:items-start bt:justify-between bt:gap-2">
        <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-1">
          <h2 id={titleId} className="bt:text-lg bt:font-semibold bt:leading-none">
            {title}
          </h2>
          {description && <CardDescription>{description}</CardDescription>}
        </div>
        {actions && <div className="bt:flex bt:flex-wrap bt:gap-2">{actions}</div>}
      </CardHeader>
      <CardContent className="bt:flex bt:min-w-0 bt:flex-col bt:gap-4">{children}</CardContent>
    </Card>
  );
}

/** A query's loading and error states, the same everywhere on the page (ui's `QueryState`, inline); children once it has data */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: QueryLike<T>;
  /** "the decisions": said in the loading and error lines */
  what: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <UiQueryState
      query={query}
      what={`${what[0]?.toUpperCase() ?? ''}${what.slice(1)}`}
      loading={`Loading ${what}…`}
      layout="inline"
      errorFirst
    >
      {children}
    </UiQueryState>
  );
}

/** A pass / fail mark with its word (colour is never the only sign) */
export function PassMark({ passed, failWord = 'Fail' }: { passed: boolean; failWord?: string }) {
  return (
    <span
      data-passed={passed}
      className={cn(
        'bt:inline-flex bt:items-center bt:gap-1 bt:font-medium',
        passed ? 'bt:text-success' : 'bt:text-destructive',
      )}
    >
      <span aria-hidden="true">{passed ? '✓' : '✗'}</span>
      {passed ? 'Pass' : failWord}
    </span>
  );
}

export const th =
  'bt:whitespace-nowrap bt:px-2 bt:py-1 bt:text-left bt:text-xs bt:font-medium bt:text-muted-foreground';
export const td = 'bt:px-2 bt:py-1 bt:align-top';
export const num =
  'bt:px-2 bt:py-1 bt:text-right bt:font-mono bt:tabular-nums bt:whitespace-nowrap bt:align-top';
