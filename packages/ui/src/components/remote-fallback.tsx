import type * as React from 'react';
import { cn } from '../lib/cn';
import { Button } from './button';
import { Spinner } from './spinner';

export type RemoteFallbackProps = React.ComponentProps<'section'> & {
  /** What the user was trying to see, e.g. "Dashboard" */
  title: string;
  /** Why it is not shown */
  message: string;
  onRetry?: () => void;
};

/** Shown in place of a part of the page that could not load; the rest of the page keeps working */
export function RemoteFallback({ title, message, onRetry, className, ...props }: RemoteFallbackProps) {
  return (
    <section
      data-slot="remote-fallback"
      role="alert"
      className={cn(
        'ui:flex ui:flex-col ui:items-start ui:gap-3 ui:rounded-xl ui:border ui:border-dashed ui:border-border ui:bg-muted ui:p-6 ui:text-foreground',
        className,
      )}
      {...props}
    >
      <h2 className="ui:font-semibold">{title}</h2>
      <p className="ui:text-sm ui:text-muted-foreground">{message}</p>
      {onRetry && (
        <Button variant="outline" size="sm" onClick={onRetry}>
          Retry
        </Button>
      )}
    </section>
  );
}

/** Shown in a part of the page while its code loads: a spinner saying what is on its way */
export function RemoteLoading({
  title,
  className,
  ...props
}: React.ComponentProps<'div'> & { title: string }) {
  return (
    <div className={cn('ui:flex ui:justify-center ui:p-8', className)} {...props}>
      <Spinner label={`Loading ${title}...`} />
    </div>
  );
}
