import type * as React from 'react';
import { useId } from 'react';
import { cn } from '../lib/cn';

/** What a field's control is given, spread onto it, to be tied to the field's label, hint and error */
export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

export interface FieldProps {
  /** The control's accessible name */
  label: string;
  /** A rule or note under the control, read with it (aria-describedby) */
  hint?: string | undefined;
  /** What is wrong with the value; marks the control invalid and is read with it */
  error?: string | undefined;
  /**
   * The error appears with role="alert", so a screen reader says it as it appears (default). Turn off where errors
   * appear as focus leaves a field (validation on blur): an alert then talks over the next field's label, and the
   * error is still read whenever its field has focus.
   */
  announceError?: boolean;
  /** The error takes the hint's place (dense grids: one line under each field, nothing jumps); by default both show */
  errorReplacesHint?: boolean;
  className?: string;
  /** The control, any kind (input, select, textarea, a custom input): spread the given props onto it */
  children: (control: FieldControlProps) => React.ReactNode;
}

/** Label, control, hint and error under it, wired for screen readers (label for, aria-describedby, aria-invalid) */
export function Field({
  label,
  hint,
  error,
  announceError = true,
  errorReplacesHint = false,
  className,
  children,
}: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const showHint = Boolean(hint) && !(error && errorReplacesHint);
  // Only texts on screen are referenced: the hint first (the rule), then what broke it
  const describedBy = [showHint ? hintId : undefined, error ? errorId : undefined].filter(Boolean).join(' ');
  return (
    <div data-slot="field" className={cn('ui:flex ui:min-w-0 ui:flex-col ui:gap-1.5', className)}>
      <label htmlFor={id} className="ui:text-sm ui:font-medium">
        {label}
      </label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {showHint && (
        <p id={hintId} className="ui:text-xs ui:text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role={announceError ? 'alert' : undefined} className="ui:text-xs ui:text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
