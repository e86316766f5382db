import { ScrollRegion } from '@kestrel/ui';
import type { ReactNode } from 'react';

/**
 * A table of the bots pages named by its caption (for screen readers; the heading above says it on screen), in a
 * region that scrolls sideways on a narrow screen
 */
export function CaptionedTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ScrollRegion label={`${label} (scrolls sideways)`}>
      <table className="bt:w-full bt:text-sm">
        <caption className="bt:sr-only">{label}</caption>
        {children}
      </table>
    </ScrollRegion>
  );
}
