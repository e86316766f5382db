import * as ToastPrimitive from '@radix-ui/react-toast';
import { cva, type VariantProps } from 'class-variance-authority';
import type * as React from 'react';
import { cn } from '../lib/cn';

/** Spec §9, second toast type: shown for 5000 ms, dismissed by a 50 px swipe, F8 focuses it */
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'];

export function ToastProvider({
  duration = TOAST_DURATION_MS,
  swipeThreshold = TOAST_SWIPE_THRESHOLD_PX,
  ...props
}: React.ComponentProps<typeof ToastPrimitive.Provider>) {
  return <ToastPrimitive.Provider duration={duration} swipeThreshold={swipeThreshold} {...props} />;
}

export function ToastViewport({
  className,
  hotkey = TOAST_HOTKEY,
  ...props
}: React.ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      data-slot="toast-viewport"
      hotkey={hotkey}
      className={cn(
        'ui:fixed ui:top-0 ui:right-0 ui:z-[100] ui:flex ui:max-h-dvh ui:w-full ui:flex-col ui:p-4 ui:sm:max-w-[420px]',
        className,
      )}
      {...props}
    />
  );
}

const toastVariants = cva(
  'ui:relative ui:flex ui:w-full ui:items-start ui:justify-between ui:gap-3 ui:overflow-hidden ui:rounded-lg ui:border ui:p-4 ui:pr-8 ui:shadow-lg',
  {
    variants: {
      variant: {
        default: 'ui:border-border ui:bg-background ui:text-foreground',
        destructive: 'ui:border-destructive ui:bg-destructive ui:text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export function Toast({
  className,
  variant,
  ...props
}: React.ComponentProps<typeof ToastPrimitive.Root> & VariantProps<typeof toastVariants>) {
  return (
    <ToastPrimitive.Root
      data-slot="toast"
      data-variant={variant ?? 'default'}
      className={cn(toastVariants({ variant }), className)}
      {...props}
    />
  );
}

export function ToastTitle({ className, ...props }: React.ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={cn('ui:text-sm ui:font-semibold', className)} {...props} />;
}

export function ToastDescription({
  className,
  ...props
}: React.ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={cn('ui:text-sm ui:opacity-90', className)} {...props} />;
}

export function ToastClose({ className, ...props }: React.ComponentProps<typeof ToastPrimitive.Close>) {
  return (
    <ToastPrimitive.Close
      aria-label="Close"
      className={cn(
        'ui:absolute ui:top-2 ui:right-2 ui:rounded-md ui:p-1 ui:opacity-70 ui:hover:opacity-100',
        className,
      )}
      {...props}
    >
      <svg
        viewBox="0 0 24 24"
        className="ui:size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        <path d="M18 6 6 18M6 6l12 12" strokeLinecap="round" />
      </svg>
    </ToastPrimitive.Close>
  );
}
