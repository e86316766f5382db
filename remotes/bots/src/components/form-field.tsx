import type { ReactNode } from 'react';
import { useId } from 'react';

/** What a field's control needs to be wired to its label, hint and error */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid': boolean;
}

/** Label, control, hint and error message under it, wired for screen readers */
export function FormField({
  label,
  hint,
  error,
  className,
  children,
}: {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`bt:flex bt:min-w-0 bt:flex-col bt:gap-1.5 ${className ?? ''}`}>
      <label htmlFor={id} className="bt:text-sm bt:font-medium">
        {label}
      </label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {hint && !error && (
        <p id={hintId} className="bt:text-xs bt:text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="bt:text-xs bt:text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** A native select styled like `@kestrel/ui`'s Input (native: keyboard, mobile pickers and forms for free) */
export const selectClassName =
  'bt:flex bt:h-9 bt:w-full bt:min-w-0 bt:rounded-md bt:border bt:border-input bt:bg-background bt:px-3 bt:py-1 bt:text-sm bt:shadow-xs bt:focus-visible:outline-2 bt:focus-visible:outline-ring bt:disabled:opacity-50 bt:aria-invalid:border-destructive';

export const textareaClassName =
  'bt:min-h-28 bt:w-full bt:rounded-md bt:border bt:border-input bt:bg-background bt:px-3 bt:py-2 bt:font-mono bt:text-xs bt:shadow-xs bt:focus-visible:outline-2 bt:focus-visible:outline-ring bt:aria-invalid:border-destructive';

/** Numbers a trader compares in columns: monospace, tabular, right-aligned */
export const figureClassName = 'bt:font-mono bt:tabular-nums bt:text-right';

/** Text colour of a figure's tone (tokens: success = profit, destructive = loss) */
export function toneClassName(tone: 'positive' | 'negative' | 'neutral'): string {
  if (tone === 'positive') return 'bt:text-success';
  if (tone === 'negative') return 'bt:text-destructive';
  return '';
}
