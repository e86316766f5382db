import type { ReactNode } from 'react';

/**
 * A wide table's sideways-scrolling frame (phones): named, and focusable so the keyboard can scroll it. Inline-size
 * containment keeps the table's width from widening every flex ancestor (and with them the page); `relative` keeps
 * its sr-only (absolute) texts inside it too.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      className="bt:relative bt:w-full bt:overflow-x-auto bt:[contain:inline-size] bt:focus-visible:outline-2 bt:focus-visible:outline-ring"
    >
      {children}
    </section>
  );
}
