import type { ReactNode } from 'react';

/**
 * A titled card of the dashboard's pages (the market watch, recent fills, the bots, the analytics tables and
 * calendar): a region named by its h2, the content under it
 */
export function CardPanel({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className="db:flex db:min-w-0 db:flex-col db:gap-3 db:rounded-xl db:border db:border-border db:bg-card db:p-4"
    >
      <h2 id={id} className="db:text-base db:font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
