import type { FieldProps } from '@kestrel/ui';

/**
 * How the bots forms use `@kestrel/ui`'s Field: they validate as focus leaves a field, so an error is not an alert
 * (it would talk over the next field's label; it is read with its own field), and in their grids the error takes the
 * hint's line.
 */
export const denseField = {
  announceError: false,
  errorReplacesHint: true,
} as const satisfies Partial<FieldProps>;

/** A native select styled like `@kestrel/ui`'s Input (native: keyboard, mobile pickers and forms for free) */
export const selectClassName =
  'bt:flex bt:h-9 bt:w-full bt:min-w-0 bt:rounded-md bt:border bt:border-input bt:bg-background bt:px-3 bt:py-1 bt:text-sm bt:shadow-xs bt:focus-visible:outline-2 bt:focus-visible:outline-ring bt:disabled:opacity-50 bt:aria-invalid:border-destructive';

export const textareaClassName =
  'bt:min-h-28 bt:w-full bt:rounded-md bt:border bt:border-input bt:bg-background bt:px-3 bt:py-2 bt:font-mono bt:text-xs bt:shadow-xs bt:focus-visible:outline-2 bt:focus-visible:outline-ring bt:aria-invalid:border-destructive';
