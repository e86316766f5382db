import { cva, type VariantProps } from 'class-variance-authority';
import type * as React from 'react';
import { cn } from '../lib/cn';

export const badgeVariants = cva(
  'ui:inline-flex ui:w-fit ui:shrink-0 ui:items-center ui:gap-1 ui:whitespace-nowrap ui:rounded-md ui:border ui:px-2 ui:py-0.5 ui:text-xs ui:font-medium',
  {
    variants: {
      variant: {
        default: 'ui:border-transparent ui:bg-primary ui:text-primary-foreground',
        secondary: 'ui:border-transparent ui:bg-secondary ui:text-secondary-foreground',
        destructive: 'ui:border-transparent ui:bg-destructive ui:text-destructive-foreground',
        success: 'ui:border-transparent ui:bg-success ui:text-success-foreground',
        warning: 'ui:border-transparent ui:bg-warning ui:text-warning-foreground',
        outline: 'ui:border-border ui:text-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export type BadgeProps = React.ComponentProps<'span'> & VariantProps<typeof badgeVariants>;

export function Badge({ className, variant, ...props }: BadgeProps) {
  return <span data-slot="badge" className={cn(badgeVariants({ variant }), className)} {...props} />;
}

/**
 * Where something trades (a bot, an agent), as every page marks it: mainnet, real money, in the destructive colour;
 * testnet quiet. The label says it in words for screen readers
 */
export function EnvironmentBadge({ environment }: { environment: 'mainnet' | 'testnet' }) {
  return environment === 'mainnet' ? (
    <Badge variant="destructive" aria-label="Trades on mainnet, real money">
      Mainnet
    </Badge>
  ) : (
    <Badge variant="secondary" aria-label="Trades on testnet">
      Testnet
    </Badge>
  );
}
