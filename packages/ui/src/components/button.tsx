import { Slot } from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import type * as React from 'react';
import { cn } from '../lib/cn';

export const buttonVariants = cva(
  'ui:inline-flex ui:items-center ui:justify-center ui:gap-2 ui:whitespace-nowrap ui:rounded-md ui:font-medium ui:transition-colors ui:cursor-pointer ui:disabled:pointer-events-none ui:disabled:opacity-50 ui:focus-visible:outline-2 ui:focus-visible:outline-offset-2 ui:focus-visible:outline-ring ui:[&_svg]:size-4 ui:[&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'ui:bg-primary ui:text-primary-foreground ui:hover:bg-primary/90',
        destructive: 'ui:bg-destructive ui:text-destructive-foreground ui:hover:bg-destructive/90',
        outline:
          'ui:border ui:border-input ui:bg-background ui:hover:bg-accent ui:hover:text-accent-foreground',
        secondary: 'ui:bg-secondary ui:text-secondary-foreground ui:hover:bg-secondary/80',
        ghost: 'ui:hover:bg-accent ui:hover:text-accent-foreground',
        link: 'ui:text-primary ui:underline-offset-4 ui:hover:underline',
      },
      size: {
        // Each size names its own text size: classes of one property are never given twice (`cn` does not merge)
        default: 'ui:h-9 ui:px-4 ui:py-2 ui:text-sm',
        sm: 'ui:h-8 ui:px-3 ui:text-xs',
        lg: 'ui:h-10 ui:px-6 ui:text-sm',
        icon: 'ui:size-9 ui:text-sm',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

export type ButtonProps = React.ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & {
    /** Render the single child (e.g. a router link) with the button's styling instead of a <button> */
    asChild?: boolean;
  };

/** The product's button; `type` defaults to "button" so a button never submits a form by accident */
export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : 'button';
  return (
    <Comp
      data-slot="button"
      type={asChild ? type : (type ?? 'button')}
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  );
}
