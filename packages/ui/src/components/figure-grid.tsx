import { cva, type VariantProps } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/** One figure of a grid: its term, its value and an optional line under it */
export interface Figure {
  /** Names the figure for tests and styles (`data-figure`) and keys it in the list */
  key: string;
  label: ReactNode;
  value: ReactNode;
  /** The value's tone (profit green, loss red: `formatPnl(…).className`, `toneClassName(…)`) */
  valueClassName?: string;
  hint?: ReactNode;
  /** The figure's card (a column span, a warning colour for the whole card) */
  className?: string;
}

const figureVariants = cva('ui:flex ui:min-w-0 ui:flex-col ui:gap-1 ui:border ui:border-border ui:bg-card', {
  variants: {
    /** `default`: small cards among other content; `lg`: a page's headline totals */
    size: {
      default: 'ui:rounded-lg ui:p-3',
      lg: 'ui:rounded-xl ui:p-4',
    },
  },
  defaultVariants: { size: 'default' },
});

const termVariants = cva('ui:text-xs ui:font-medium ui:text-muted-foreground', {
  variants: { size: { default: 'ui:truncate', lg: 'ui:uppercase ui:tracking-wide' } },
  defaultVariants: { size: 'default' },
});

const valueVariants = cva('ui:font-mono ui:font-semibold ui:tabular-nums', {
  variants: { size: { default: 'ui:text-lg', lg: 'ui:truncate ui:text-xl' } },
  defaultVariants: { size: 'default' },
});

export type FigureGridProps = Omit<React.ComponentProps<'dl'>, 'children'> &
  VariantProps<typeof figureVariants> & {
    /** The list's name for screen readers */
    label: string;
    figures: readonly Figure[];
  };

/**
 * Figures as small cards, two a row on a phone and three from `sm` (a page widens it with its own `lg:`/`xl:`
 * columns in `className`): a `<dl>` named for screen readers, each card a term and its value (and a hint)
 */
export function FigureGrid({ label, figures, size, className, ...props }: FigureGridProps) {
  return (
    <dl
      data-slot="figure-grid"
      aria-label={label}
      className={cn('ui:grid ui:grid-cols-2 ui:gap-3 ui:sm:grid-cols-3', className)}
      {...props}
    >
      {figures.map((f) => (
        <div key={f.key} data-figure={f.key} className={cn(figureVariants({ size }), f.className)}>
          <dt className={termVariants({ size })}>{f.label}</dt>
          <dd className={cn(valueVariants({ size }), f.valueClassName)}>{f.value}</dd>
          {f.hint && <dd className="ui:text-xs ui:text-muted-foreground">{f.hint}</dd>}
        </div>
      ))}
    </dl>
  );
}
