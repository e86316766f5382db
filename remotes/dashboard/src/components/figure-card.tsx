import { cn } from '@kestrel/ui';
import { type ReactNode, useId } from 'react';

export interface FigureCardProps {
  /** The card's name (its heading; the article is named by it, so tests and screen readers find it) */
  title: string;
  /** The figure, already formatted */
  value: string;
  /** Tone of the figure (gain, loss, warning) */
  valueClassName?: string;
  /** Small beside the figure, e.g. "USDT" */
  unit?: string;
  /** A line of detail under the figure */
  children?: ReactNode;
}

/**
 * One figure of the account on a card: a heading, the figure large in monospaced digits, an optional unit and a line
 * of detail. The cards of /dashboard, /analytics and /risk share it, so the same figure reads the same on each page
 */
export function FigureCard({ title, value, valueClassName, unit, children }: FigureCardProps) {
  const id = useId();
  return (
    <article
      aria-labelledby={id}
      className="db:flex db:min-w-0 db:flex-col db:gap-1 db:rounded-xl db:border db:border-border db:bg-card db:p-3 db:text-card-foreground db:sm:p-4"
    >
      <h3 id={id} className="db:text-sm db:font-medium db:text-muted-foreground">
        {title}
      </h3>
      <p className="db:flex db:items-baseline db:gap-1.5">
        <span
          className={cn(
            'db:font-mono db:text-lg db:font-semibold db:tabular-nums db:sm:text-2xl',
            valueClassName,
          )}
        >
          {value}
        </span>
        {unit && <span className="db:text-xs db:text-muted-foreground">{unit}</span>}
      </p>
      {children && <div className="db:text-xs db:text-muted-foreground">{children}</div>}
    </article>
  );
}
