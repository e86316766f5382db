import type * as React from 'react';
import { cn } from '../lib/cn';

export interface ToggleGroupProps<T extends string> {
  /** The group's name for screen readers ("Chart interval") */
  label: string;
  /** Each choice: its value and, when it differs, what the button says */
  options: readonly (T | { value: T; label: React.ReactNode })[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
}

/**
 * One of a few choices as pressed buttons in a muted strip (a chart's interval, a list's filter): each a real
 * button with `aria-pressed`, so click, Enter and Space work and a screen reader says which is on. Lighter than a
 * tab list when the choice only changes what one view shows
 */
export function ToggleGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  className,
}: ToggleGroupProps<T>) {
  return (
    <fieldset
      aria-label={label}
      data-slot="toggle-group"
      className={cn(
        'ui:m-0 ui:inline-flex ui:min-h-9 ui:flex-wrap ui:items-center ui:gap-0.5 ui:rounded-lg ui:border-0 ui:bg-muted ui:p-1',
        className,
      )}
    >
      {options.map((option) => {
        const v = typeof option === 'string' ? option : option.value;
        const pressed = v === value;
        return (
          <button
            key={v}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(v)}
            className={cn(
              'ui:min-h-7 ui:cursor-pointer ui:rounded-md ui:px-2 ui:text-sm ui:font-medium ui:focus-visible:outline-2 ui:focus-visible:outline-ring',
              pressed
                ? 'ui:bg-background ui:text-foreground ui:shadow-sm'
                : 'ui:text-muted-foreground ui:hover:text-foreground',
            )}
          >
            {typeof option === 'string' ? option : option.label}
          </button>
        );
      })}
    </fieldset>
  );
}
