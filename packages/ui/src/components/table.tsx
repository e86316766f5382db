import type * as React from 'react';
import { cn } from '../lib/cn';

/** A plain table; put a wide one in a `ScrollRegion` so phones scroll it rather than the page */
export function Table({ className, ...props }: React.ComponentProps<'table'>) {
  return (
    <table
      data-slot="table"
      className={cn('ui:w-full ui:caption-bottom ui:border-collapse ui:text-sm', className)}
      {...props}
    />
  );
}

export function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('ui:[&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return (
    <tbody data-slot="table-body" className={cn('ui:[&_tr:last-child]:border-0', className)} {...props} />
  );
}

export function TableFooter({ className, ...props }: React.ComponentProps<'tfoot'>) {
  return (
    <tfoot
      data-slot="table-footer"
      className={cn('ui:border-t ui:border-border ui:bg-muted/50 ui:font-medium', className)}
      {...props}
    />
  );
}

export function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return (
    <tr
      data-slot="table-row"
      className={cn('ui:border-b ui:border-border ui:data-[state=selected]:bg-muted', className)}
      {...props}
    />
  );
}

export function TableHead({
  className,
  align = 'left',
  flush = false,
  ...props
}: React.ComponentProps<'th'> & {
  align?: 'left' | 'right';
  /** No padding: the header's content (a sort button) fills it and pads itself */
  flush?: boolean;
}) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        'ui:whitespace-nowrap ui:align-middle ui:text-xs ui:font-medium ui:text-muted-foreground',
        align === 'right' ? 'ui:text-right' : 'ui:text-left',
        !flush && 'ui:px-3 ui:py-2',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: React.ComponentProps<'td'>) {
  return (
    <td
      data-slot="table-cell"
      className={cn('ui:whitespace-nowrap ui:px-3 ui:py-1.5 ui:align-middle', className)}
      {...props}
    />
  );
}

export function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
  return (
    <caption
      data-slot="table-caption"
      className={cn('ui:mt-3 ui:text-xs ui:text-muted-foreground', className)}
      {...props}
    />
  );
}
