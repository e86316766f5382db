import type * as React from 'react';
import { cn } from '../lib/cn';

/** Multi-line text, styled like `Input`; monospace when it holds code or JSON (`className`) */
export function Textarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(
        'ui:flex ui:min-h-28 ui:w-full ui:min-w-0 ui:rounded-md ui:border ui:border-input ui:bg-background ui:px-3 ui:py-2 ui:text-sm ui:shadow-xs ui:transition-colors ui:placeholder:text-muted-foreground ui:focus-visible:outline-2 ui:focus-visible:outline-ring ui:disabled:cursor-not-allowed ui:disabled:opacity-50 ui:aria-invalid:border-destructive',
        className,
      )}
      {...props}
    />
  );
}
