import { cn } from '@kestrel/ui';

export interface Figure {
  key: string;
  label: string;
  value: string;
  /** A tone's class (profit green, loss red) */
  className?: string;
  hint?: string;
}

/** Small figure cards, two a row on a phone; a `<dl>` named for screen readers */
export function FigureGrid({
  label,
  figures,
  className,
}: {
  label: string;
  figures: readonly Figure[];
  className?: string;
}) {
  return (
    <dl aria-label={label} className={cn('bt:grid bt:grid-cols-2 bt:gap-3 bt:sm:grid-cols-3', className)}>
      {figures.map((f) => (
        <div
          key={f.key}
          data-figure={f.key}
          className="bt:flex bt:min-w-0 bt:flex-col bt:gap-1 bt:rounded-lg bt:border bt:border-border bt:bg-card bt:p-3"
        >
          <dt className="bt:truncate bt:text-xs bt:font-medium bt:text-muted-foreground">{f.label}</dt>
          <dd className={cn('bt:font-mono bt:text-lg bt:font-semibold bt:tabular-nums', f.className)}>
            {f.value}
          </dd>
          {f.hint && <dd className="bt:text-xs bt:text-muted-foreground">{f.hint}</dd>}
        </div>
      ))}
    </dl>
  );
}
