import * as TabsPrimitive from '@radix-ui/react-tabs';
import type * as React from 'react';
import { cn } from '../lib/cn';

/** Tabs (Radix): arrow keys move between tabs, Home/End jump, the panel follows the selected tab */
export function Tabs({ className, ...props }: React.ComponentProps<typeof TabsPrimitive.Root>) {
  return (
    <TabsPrimitive.Root
      data-slot="tabs"
      className={cn('ui:flex ui:flex-col ui:gap-3', className)}
      {...props}
    />
  );
}

export function TabsList({ className, ...props }: React.ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      data-slot="tabs-list"
      className={cn(
        'ui:inline-flex ui:h-9 ui:w-fit ui:max-w-full ui:items-center ui:overflow-x-auto ui:rounded-lg ui:bg-muted ui:p-1 ui:text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: React.ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      data-slot="tabs-trigger"
      className={cn(
        'ui:inline-flex ui:h-full ui:items-center ui:justify-center ui:gap-1.5 ui:whitespace-nowrap ui:rounded-md ui:px-3 ui:text-sm ui:font-medium ui:transition-colors ui:cursor-pointer ui:hover:text-foreground ui:focus-visible:outline-2 ui:focus-visible:outline-ring ui:disabled:pointer-events-none ui:disabled:opacity-50 ui:data-[state=active]:bg-background ui:data-[state=active]:text-foreground ui:data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: React.ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      data-slot="tabs-content"
      className={cn('ui:flex-1 ui:focus-visible:outline-2 ui:focus-visible:outline-ring', className)}
      {...props}
    />
  );
}
