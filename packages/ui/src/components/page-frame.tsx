import type * as React from 'react';
import { cn } from '../lib/cn';

export type PageFrameProps = Omit<React.ComponentProps<'section'>, 'title'> & {
  /** The page's one `<h1>` (id `page-title`, the section's name) */
  title: string;
  /** A line under the title: what the page is for */
  description?: React.ReactNode;
  /** Buttons beside the title (wrap under it on phones) */
  actions?: React.ReactNode;
};

/**
 * The frame of every page: a section named by its `<h1 id="page-title">`. The heading takes focus only from code
 * (`tabIndex={-1}`), so a route change can move the reader to it. Pass `data-*` attributes through (the remote that
 * rendered it).
 */
export function PageFrame({ title, description, actions, className, children, ...props }: PageFrameProps) {
  return (
    <section
      data-slot="page-frame"
      aria-labelledby="page-title"
      className={cn('ui:flex ui:min-w-0 ui:flex-col ui:gap-6', className)}
      {...props}
    >
      <div className="ui:flex ui:flex-wrap ui:items-start ui:justify-between ui:gap-3">
        <div className="ui:flex ui:min-w-0 ui:flex-col ui:gap-1">
          <h1
            id="page-title"
            tabIndex={-1}
            className="ui:text-2xl ui:font-semibold ui:tracking-tight ui:focus:outline-none"
          >
            {title}
          </h1>
          {description && <p className="ui:text-sm ui:text-muted-foreground">{description}</p>}
        </div>
        {actions && <div className="ui:flex ui:flex-wrap ui:items-center ui:gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

export type EmptyStateProps = Omit<React.ComponentProps<'div'>, 'title'> & {
  /** What is missing, plainly: "No bots yet" */
  title: string;
  /** What will appear here, and how to get it */
  description?: React.ReactNode;
  /** The one thing to do about it (a link or button) */
  action?: React.ReactNode;
};

/** Where a list or a page has nothing to show yet: says so, and what will appear, rather than showing made-up figures */
export function EmptyState({ title, description, action, className, ...props }: EmptyStateProps) {
  return (
    <div
      data-slot="empty-state"
      className={cn(
        'ui:flex ui:flex-col ui:items-center ui:justify-center ui:gap-2 ui:rounded-xl ui:border ui:border-dashed ui:border-border ui:px-6 ui:py-12 ui:text-center',
        className,
      )}
      {...props}
    >
      <h2 className="ui:text-base ui:font-semibold">{title}</h2>
      {description && <p className="ui:max-w-prose ui:text-sm ui:text-muted-foreground">{description}</p>}
      {action && <div className="ui:mt-2">{action}</div>}
    </div>
  );
}
