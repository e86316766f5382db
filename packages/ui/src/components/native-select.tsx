import type * as React from 'react';
import { cn } from '../lib/cn';

/**
 * A native `<select>` styled like `Input`: keyboard, mobile pickers, form submission and `register()` for free. Use it
 * in forms; `Select` (Radix, `@kestrel/ui/select`) is for pickers that need styled options.
 */
export function NativeSelect({ className, ...props }: React.ComponentProps<'select'>) {
  return (
    <select
      data-slot="native-select"
      className={cn(
        'ui:flex ui:h-9 ui:w-full ui:min-w-0 ui:rounded-md ui:border ui:border-input ui:bg-background ui:px-3 ui:py-1 ui:text-sm ui:shadow-xs ui:focus-visible:outline-2 ui:focus-visible:outline-ring ui:disabled:cursor-not-allowed ui:disabled:opacity-50 ui:aria-invalid:border-destructive',
        className,
      )}
      {...props}
    />
  );
}
