import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { Button } from './button';
import { Spinner } from './spinner';

/**
 * A titled panel of a page: a region named by its h2, an optional line under the title, then its content. The
 * pages' panels (risk, account, settings) share this one look instead of each remote keeping a copy.
 */
export function Panel({
  id,
  title,
  description,
  className,
  children,
}: {
  /** The heading's id: the region is labelled by it */
  id: string;
  title: string;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={cn(
        'ui:flex ui:min-w-0 ui:flex-col ui:gap-3 ui:rounded-xl ui:border ui:border-border ui:bg-card ui:p-3 ui:text-card-foreground ui:sm:p-4',
        className,
      )}
    >
      <div className="ui:flex ui:flex-col ui:gap-0.5">
        <h2 id={id} className="ui:text-base ui:font-semibold">
          {title}
        </h2>
        {description && <p className="ui:text-sm ui:text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}

/** A panel's content while it loads: the spinner with what it waits for */
export function PanelLoading({ label }: { label: string }) {
  return (
    <div className="ui:py-4">
      <Spinner label={label} />
    </div>
  );
}

/** A failed read in a panel: what failed, why, and a way to try again */
export function PanelFailure({
  what,
  message,
  onRetry,
}: {
  what: string;
  message: string;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="ui:flex ui:flex-col ui:items-start ui:gap-2 ui:text-sm">
      <p>
        {what} could not be loaded: {message}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
