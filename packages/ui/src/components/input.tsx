import type * as React from 'react';
import { cn } from '../lib/cn';

export function Input({ className, type = 'text', ...props }: React.ComponentProps<'input'>) {
  return (
    <input
      type={type}
      data-slot="input"
      className={cn(
        'ui:flex ui:h-9 ui:w-full ui:min-w-0 ui:rounded-md ui:border ui:border-input ui:bg-background ui:px-3 ui:py-1 ui:text-sm ui:shadow-xs ui:transition-colors ui:placeholder:text-muted-foreground ui:focus-visible:outline-2 ui:focus-visible:outline-ring ui:disabled:cursor-not-allowed ui:disabled:opacity-50 ui:aria-invalid:border-destructive',
        className,
      )}
      {...props}
    />
  );
}
