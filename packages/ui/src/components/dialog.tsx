import * as DialogPrimitive from '@radix-ui/react-dialog';
import type * as React from 'react';
import { cn } from '../lib/cn';
import { CloseIcon } from './close-icon';

// Radix provides the focus trap, Escape to close, aria wiring and focus return; these only style it

export function Dialog(props: React.ComponentProps<typeof DialogPrimitive.Root>) {
  return <DialogPrimitive.Root data-slot="dialog" {...props} />;
}

export function DialogTrigger(props: React.ComponentProps<typeof DialogPrimitive.Trigger>) {
  return <DialogPrimitive.Trigger data-slot="dialog-trigger" {...props} />;
}

export function DialogClose(props: React.ComponentProps<typeof DialogPrimitive.Close>) {
  return <DialogPrimitive.Close data-slot="dialog-close" {...props} />;
}

export function DialogOverlay({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      data-slot="dialog-overlay"
      className={cn('ui:fixed ui:inset-0 ui:z-50 ui:bg-black/50', className)}
      {...props}
    />
  );
}

export type DialogContentProps = React.ComponentProps<typeof DialogPrimitive.Content> & {
  /** Label of the corner close button, for screen readers */
  closeLabel?: string;
  showCloseButton?: boolean;
};

export function DialogContent({
  className,
  children,
  closeLabel = 'Close',
  showCloseButton = true,
  ...props
}: DialogContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogOverlay />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          'ui:fixed ui:top-1/2 ui:left-1/2 ui:z-50 ui:grid ui:max-h-[calc(100dvh-2rem)] ui:w-[calc(100%-2rem)] ui:max-w-lg ui:-translate-x-1/2 ui:-translate-y-1/2 ui:gap-4 ui:overflow-y-auto ui:rounded-xl ui:border ui:border-border ui:bg-background ui:p-6 ui:text-foreground ui:shadow-lg',
          className,
        )}
        {...props}
      >
        {children}
        {showCloseButton && (
          <DialogPrimitive.Close
            className="ui:absolute ui:top-4 ui:right-4 ui:rounded-sm ui:opacity-70 ui:transition-opacity ui:hover:opacity-100 ui:cursor-pointer"
            aria-label={closeLabel}
          >
            <CloseIcon />
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="dialog-header"
      className={cn('ui:flex ui:flex-col ui:gap-1.5 ui:text-center ui:sm:text-left', className)}
      {...props}
    />
  );
}

export function DialogFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="dialog-footer"
      className={cn('ui:flex ui:flex-col-reverse ui:gap-2 ui:sm:flex-row ui:sm:justify-end', className)}
      {...props}
    />
  );
}

export function DialogTitle({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      data-slot="dialog-title"
      className={cn('ui:text-lg ui:font-semibold ui:leading-none', className)}
      {...props}
    />
  );
}

export function DialogDescription({
  className,
  tone = 'note',
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Description> & {
  /** `note`: the dialog's usual muted line; `plan`: a sentence that is exactly what will happen, at body size */
  tone?: 'note' | 'plan';
}) {
  return (
    <DialogPrimitive.Description
      data-slot="dialog-description"
      className={cn(
        tone === 'plan' ? 'ui:text-base ui:text-foreground' : 'ui:text-sm ui:text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
}
