import type * as React from 'react';
import { cn } from '../lib/cn';

export type ScrollRegionProps = React.ComponentProps<'section'> & {
  /** The region's name, read when the keyboard reaches it, e.g. "Trades (scrolls sideways)" */
  label: string;
};

/**
 * A wide table's sideways-scrolling frame (phones): named, and focusable so the keyboard can scroll it. Inline-size
 * containment keeps the table's width from widening every flex ancestor (and with them the page); `relative` keeps
 * its sr-only (absolute) texts inside it too.
 */
export function ScrollRegion({ label, className, ...props }: ScrollRegionProps) {
  return (
    <section
      data-slot="scroll-region"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      className={cn(
        'ui:relative ui:w-full ui:overflow-x-auto ui:[contain:inline-size] ui:focus-visible:outline-2 ui:focus-visible:outline-ring',
        className,
      )}
      {...props}
    />
  );
}
