import * as SelectPrimitive from '@radix-ui/react-select';
import type * as React from 'react';
import { cn } from '../lib/cn';

function Chevron({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={cn('ui:size-4 ui:shrink-0 ui:opacity-60', className)}
    >
      <path d="m6 9 6 6 6-6" />
    </svg>
  );
}

/** A styled listbox picker (Radix): type-ahead, arrows, Home/End, Escape; the trigger is a combobox */
export function Select(props: React.ComponentProps<typeof SelectPrimitive.Root>) {
  return <SelectPrimitive.Root data-slot="select" {...props} />;
}

export function SelectGroup(props: React.ComponentProps<typeof SelectPrimitive.Group>) {
  return <SelectPrimitive.Group data-slot="select-group" {...props} />;
}

export function SelectValue(props: React.ComponentProps<typeof SelectPrimitive.Value>) {
  return <SelectPrimitive.Value data-slot="select-value" {...props} />;
}

export function SelectTrigger({
  className,
  children,
  ...props
}: React.ComponentProps<typeof SelectPrimitive.Trigger>) {
  return (
    <SelectPrimitive.Trigger
      data-slot="select-trigger"
      className={cn(
        'ui:flex ui:h-9 ui:w-full ui:min-w-0 ui:items-center ui:justify-between ui:gap-2 ui:whitespace-nowrap ui:rounded-md ui:border ui:border-input ui:bg-background ui:px-3 ui:py-1 ui:text-sm ui:shadow-xs ui:focus-visible:outline-2 ui:focus-visible:outline-ring ui:disabled:cursor-not-allowed ui:disabled:opacity-50 ui:aria-invalid:border-destructive ui:data-[placeholder]:text-muted-foreground ui:[&>span]:truncate',
        className,
      )}
      {...props}
    >
      {children}
      <SelectPrimitive.Icon asChild>
        <Chevron />
      </SelectPrimitive.Icon>
    </SelectPrimitive.Trigger>
  );
}

export function SelectContent({
  className,
  children,
  position = 'popper',
  ...props
}: React.ComponentProps<typeof SelectPrimitive.Content>) {
  return (
    <SelectPrimitive.Portal>
      <SelectPrimitive.Content
        data-slot="select-content"
        position={position}
        className={cn(
          'ui:relative ui:z-50 ui:max-h-(--radix-select-content-available-height) ui:overflow-hidden ui:rounded-md ui:border ui:border-border ui:bg-popover ui:text-popover-foreground ui:shadow-md',
          position === 'popper'
            ? 'ui:w-full ui:min-w-(--radix-select-trigger-width) ui:translate-y-1'
            : 'ui:min-w-32',
          className,
        )}
        {...props}
      >
        <SelectPrimitive.Viewport className="ui:p-1">{children}</SelectPrimitive.Viewport>
      </SelectPrimitive.Content>
    </SelectPrimitive.Portal>
  );
}

export function SelectLabel({ className, ...props }: React.ComponentProps<typeof SelectPrimitive.Label>) {
  return (
    <SelectPrimitive.Label
      data-slot="select-label"
      className={cn('ui:px-2 ui:py-1.5 ui:text-xs ui:text-muted-foreground', className)}
      {...props}
    />
  );
}

export function SelectItem({
  className,
  children,
  ...props
}: React.ComponentProps<typeof SelectPrimitive.Item>) {
  return (
    <SelectPrimitive.Item
      data-slot="select-item"
      className={cn(
        'ui:relative ui:flex ui:w-full ui:cursor-default ui:select-none ui:items-center ui:gap-2 ui:rounded-sm ui:py-1.5 ui:pr-8 ui:pl-2 ui:text-sm ui:outline-hidden ui:focus:bg-accent ui:focus:text-accent-foreground ui:data-[disabled]:pointer-events-none ui:data-[disabled]:opacity-50',
        className,
      )}
      {...props}
    >
      <span className="ui:absolute ui:right-2 ui:flex ui:size-3.5 ui:items-center ui:justify-center">
        <SelectPrimitive.ItemIndicator>
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
            focusable="false"
            className="ui:size-4"
          >
            <path d="M20 6 9 17l-5-5" />
          </svg>
        </SelectPrimitive.ItemIndicator>
      </span>
      <SelectPrimitive.ItemText>{children}</SelectPrimitive.ItemText>
    </SelectPrimitive.Item>
  );
}

export function SelectSeparator({
  className,
  ...props
}: React.ComponentProps<typeof SelectPrimitive.Separator>) {
  return (
    <SelectPrimitive.Separator
      data-slot="select-separator"
      className={cn('ui:-mx-1 ui:my-1 ui:h-px ui:bg-border', className)}
      {...props}
    />
  );
}
