import type * as React from 'react';
import { cn } from '../lib/cn';

export type SpinnerProps = React.ComponentProps<'output'> & {
  /** Text announced to screen readers and, unless `hideLabel`, shown beside the spinner */
  label?: string;
  hideLabel?: boolean;
};

/** Indeterminate progress; announced politely as a status */
export function Spinner({ className, label = 'Loading...', hideLabel = false, ...props }: SpinnerProps) {
  return (
    <output
      data-slot="spinner"
      aria-live="polite"
      className={cn('ui:inline-flex ui:items-center ui:gap-2 ui:text-muted-foreground', className)}
      {...props}
    >
      <svg
        className="ui:size-5 ui:animate-spin"
        viewBox="0 0 24 24"
        fill="none"
        aria-hidden="true"
        focusable="false"
      >
        <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
      </svg>
      <span className={hideLabel ? 'ui:sr-only' : 'ui:text-sm'}>{label}</span>
    </output>
  );
}
