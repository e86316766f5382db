import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import * as React from 'react';
import { cn } from '../lib/cn';

/** Product spec §9: a tooltip opens after 700 ms of hover */
export const TOOLTIP_OPEN_DELAY_MS = 700;
/** Product spec §9: moving to another trigger within 300 ms opens it at once */
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** Whether a `TooltipProvider` is above: Radix's own context is private */
const InsideProvider = React.createContext(false);

/**
 * Groups tooltips so moving from one trigger to the next within 300 ms opens it at once (spec §9). Wrap a page or
 * a toolbar that shows several tooltips in one. The shell does not provide one: Radix Tooltip is ~15 KB gzip that
 * pages without tooltips should not load.
 */
export function TooltipProvider({
  delayDuration = TOOLTIP_OPEN_DELAY_MS,
  skipDelayDuration = TOOLTIP_SKIP_DELAY_MS,
  ...props
}: React.ComponentProps<typeof TooltipPrimitive.Provider>) {
  return (
    <InsideProvider.Provider value={true}>
      <TooltipPrimitive.Provider
        data-slot="tooltip-provider"
        delayDuration={delayDuration}
        skipDelayDuration={skipDelayDuration}
        {...props}
      />
    </InsideProvider.Provider>
  );
}

/** Works with or without a `TooltipProvider` above (alone it still opens after the spec's 700 ms) */
export function Tooltip(props: React.ComponentProps<typeof TooltipPrimitive.Root>) {
  const root = <TooltipPrimitive.Root data-slot="tooltip" {...props} />;
  return React.useContext(InsideProvider) ? root : <TooltipProvider>{root}</TooltipProvider>;
}

export function TooltipTrigger(props: React.ComponentProps<typeof TooltipPrimitive.Trigger>) {
  return <TooltipPrimitive.Trigger data-slot="tooltip-trigger" {...props} />;
}

export function TooltipContent({
  className,
  sideOffset = 4,
  children,
  ...props
}: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        data-slot="tooltip-content"
        sideOffset={sideOffset}
        className={cn(
          'ui:z-50 ui:w-fit ui:max-w-xs ui:rounded-md ui:bg-foreground ui:px-3 ui:py-1.5 ui:text-xs ui:text-background',
          className,
        )}
        {...props}
      >
        {children}
      </TooltipPrimitive.Content>
    </TooltipPrimitive.Portal>
  );
}
