import { cn, Input } from '@kestrel/ui';
import type { ComponentProps } from 'react';

/**
 * A figure the trader types (a price, a size, a rate, a leverage): the decimal keypad, monospaced digits, nothing
 * filled in by the browser. `onValueChange` gets the text trimmed (a pasted "64 000.5 " is not a figure)
 */
export function FigureInput({
  className,
  onValueChange,
  ...props
}: ComponentProps<typeof Input> & { onValueChange?: (value: string) => void }) {
  return (
    <Input
      inputMode="decimal"
      autoComplete="off"
      {...props}
      {...(onValueChange ? { onChange: (e) => onValueChange(e.target.value.trim()) } : {})}
      className={cn('db:font-mono db:tabular-nums', className)}
    />
  );
}
