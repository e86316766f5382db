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
