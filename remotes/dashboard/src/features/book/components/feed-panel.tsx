import { Spinner } from '@kestrel/ui';
import type { ReactNode } from 'react';
import { useId } from 'react';

/** Where a live feed stands: its first read, flowing, cut off (the last data kept), or failed */
export type FeedStatus = 'loading' | 'live' | 'stale' | 'error';

export interface FeedPanelProps {
  /** The panel's heading, and so the region's name */
  title: string;
  /** Controls beside the heading (the book's grouping) */
  actions?: ReactNode;
  status: FeedStatus;
  error?: string | undefined;
  /** What failed, as the sentence starts: "The order book" */
  what: string;
  /** The spinner's words: "Loading the order book…" */
  loading: string;
  /** Nothing to show: `emptyText` instead of the content */
  empty: boolean;
  emptyText: string;
  /** Said while `stale`, above the last data */
  staleText: string;
  /** Gets the heading's id, for a table named by it */
  children: (titleId: string) => ReactNode;
}

/**
 * The frame of the book and the tape: a compact card named by its heading, with the feed's states. Data that went
 * stale stays on screen, dimmed under a note, so a dropped socket never looks like a frozen market
 */
export function FeedPanel({
  title,
  actions,
  status,
  error,
  what,
  loading,
  empty,
  emptyText,
  staleText,
  children,
}: FeedPanelProps) {
  const titleId = useId();
  let body: ReactNode;
  if (status === 'loading') {
    body = <Spinner label={loading} className="db:py-4" />;
  } else if (status === 'error') {
    body = (
      <p role="alert" className="db:py-2 db:text-sm db:text-destructive">
        {what} could not be loaded: {error || 'no answer from the server'}
      </p>
    );
  } else {
    body = (
      <>
        {status === 'stale' && (
          <p
            role="status"
            className="db:self-start db:rounded-sm db:bg-warning db:px-1.5 db:py-0.5 db:text-xs db:font-medium db:text-warning-foreground"
          >
            {staleText}
          </p>
        )}
        {empty ? (
          <p className="db:py-4 db:text-center db:text-sm db:text-muted-foreground">{emptyText}</p>
        ) : (
          <div className={status === 'stale' ? 'db:opacity-60' : undefined}>{children(titleId)}</div>
        )}
      </>
    );
  }
  return (
    <section
      aria-labelledby={titleId}
      className="db:flex db:min-w-0 db:flex-col db:gap-2 db:rounded-xl db:border db:border-border db:bg-card db:p-3 db:text-card-foreground db:sm:p-4"
    >
      <div className="db:flex db:items-center db:justify-between db:gap-2">
        <h2 id={titleId} className="db:text-base db:font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {body}
    </section>
  );
}
