import { cn } from '@kestrel/ui';
import { isActingReason, reasonHint, reasonLabel } from '../lib/agent-words';

/** The decision's reason codes as small chips (a hold always says why) */
export function ReasonChips({ codes, className }: { codes: readonly string[]; className?: string }) {
  if (codes.length === 0) return null;
  return (
    <ul aria-label="Reasons" className={cn('bt:flex bt:flex-wrap bt:gap-1', className)}>
      {codes.map((code) => (
        <li
          key={code}
          data-reason={code}
          title={reasonHint(code)}
          className={cn(
            'bt:rounded-full bt:border bt:px-2 bt:py-0.5 bt:text-xs',
            isActingReason(code)
              ? 'bt:border-primary bt:bg-primary/10 bt:text-foreground'
              : 'bt:border-border bt:bg-muted bt:text-muted-foreground',
          )}
        >
          {reasonLabel(code)}
        </li>
      ))}
    </ul>
  );
}
