// The main entry's Button and Spinner (a shared module), not a second copy bundled into this entry point with its Slot
// biome-ignore lint/style/noRestrictedImports: ui's own main entry (self-reference), not another workspace package
import { Button, Spinner } from '@kestrel/ui';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

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
export function PanelLoading({ label, className }: { label: string; className?: string }) {
  return (
    <div data-slot="panel-loading" className={cn('ui:py-4', className)}>
      <Spinner label={label} />
    </div>
  );
}

const failureVariants = cva('ui:flex ui:gap-2 ui:text-sm', {
  variants: {
    /** `block`: the sentence over its Retry button (a panel's whole content); `inline`: one red line among others */
    layout: {
      block: 'ui:flex-col ui:items-start',
      inline: 'ui:flex-wrap ui:items-center ui:text-destructive',
    },
  },
  defaultVariants: { layout: 'block' },
});

export type PanelFailureProps = Omit<React.ComponentProps<'div'>, 'children'> &
  VariantProps<typeof failureVariants> & {
    /** What failed, as the sentence starts: "Your profile" */
    what: string;
    message: string;
    onRetry: () => void;
  };

/** A failed read: what failed, why, and a way to try again */
export function PanelFailure({ what, message, onRetry, layout, className, ...props }: PanelFailureProps) {
  const Sentence = layout === 'inline' ? 'span' : 'p';
  return (
    <div
      role="alert"
      data-slot="panel-failure"
      className={cn(failureVariants({ layout }), className)}
      {...props}
    >
      <Sentence>
        {what} could not be loaded: {message}
      </Sentence>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

/** What `QueryState` reads of a query (TanStack Query's result fits; ui knows no data library) */
export interface QueryLike<T> {
  isPending: boolean;
  data: T | undefined;
  error: { message: string } | null;
  refetch: () => unknown;
}

/**
 * A query in its states: loading, its content once there is data (or `empty` when `isEmpty` says so), or the
 * failure with Retry. By default data already shown stays after a failed refetch (the query retries on its own);
 * `errorFirst` shows the failure instead, for pages whose figures must not look current when they are not
 */
export function QueryState<T>({
  query,
  what,
  loading,
  layout = 'block',
  errorFirst = false,
  isEmpty,
  empty,
  children,
}: VariantProps<typeof failureVariants> & {
  query: QueryLike<T>;
  /** What is read, as a sentence starts: "Your profile" (said in the failure) */
  what: string;
  /** The spinner's words: "Loading your profile…" */
  loading: string;
  errorFirst?: boolean;
  /** Data that has nothing to show (an empty list): `empty` is shown instead of `children` */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const failure = (
    <PanelFailure
      layout={layout}
      what={what}
      message={query.error?.message ?? 'no answer'}
      onRetry={() => void query.refetch()}
    />
  );
  if (errorFirst && query.error) return failure;
  if (query.isPending)
    return layout === 'inline' ? <Spinner label={loading} /> : <PanelLoading label={loading} />;
  if (query.data === undefined) return failure;
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
