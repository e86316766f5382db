import { Button, cn, Spinner } from '@kestrel/ui';
import type { ReactNode } from 'react';

const panel =
  'ac:flex ac:min-w-0 ac:flex-col ac:gap-3 ac:rounded-xl ac:border ac:border-border ac:bg-card ac:p-3 ac:text-card-foreground ac:sm:p-4';

/** A titled panel of the page (its h2 names the region) */
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
      <div className="ac:flex ac:flex-col ac:gap-0.5">
        <h2 id={id} className="ac:text-base ac:font-semibold">
          {title}
        </h2>
        {description && <p className="ac:text-sm ac:text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="ac:py-4">
      <Spinner label={label} />
    </div>
  );
}

/** A failed read: what failed, why, and a way to try again */
export function Failure({ what, message, onRetry }: { what: string; message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="ac:flex ac:flex-col ac:items-start ac:gap-2 ac:text-sm">
      <p>
        {what} could not be loaded: {message}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** The text of a failed mutation, for `setError('root', …)` */
export const failureText = (err: unknown, fallback: string) =>
  err instanceof Error && err.message ? err.message : fallback;
