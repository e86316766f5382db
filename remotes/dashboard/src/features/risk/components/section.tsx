import { Button, cn, Spinner } from '@kestrel/ui';
import type { ReactNode } from 'react';

export const panel =
  'db:flex db:min-w-0 db:flex-col db:gap-3 db:rounded-xl db:border db:border-border db:bg-card db:p-3 db:text-card-foreground db:sm:p-4';

/** A titled panel of the page (an h2 names the region) */
export function Section({
  id,
  title,
  description,
  className,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={cn(panel, className)}>
      <div className="db:flex db:flex-col db:gap-0.5">
        <h2 id={id} className="db:text-base db:font-semibold">
          {title}
        </h2>
        {description && <p className="db:text-sm db:text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="db:py-4">
      <Spinner label={label} />
    </div>
  );
}

/** A failed read: what failed, why, and a way to try again */
export function Failure({ what, message, onRetry }: { what: string; message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="db:flex db:flex-col db:items-start db:gap-2 db:text-sm">
      <p>
        {what} could not be loaded: {message}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
