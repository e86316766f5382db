import { Button } from '@kestrel/ui';
import type { ReactNode } from 'react';

/** A form's submit button (its own words while the form is sent), with what the form says once done beside it */
export function SubmitRow({
  submitting,
  label,
  busyLabel,
  children,
}: {
  submitting: boolean;
  label: string;
  busyLabel: string;
  children?: ReactNode;
}) {
  return (
    <div className="ac:flex ac:flex-wrap ac:items-center ac:gap-3">
      <Button type="submit" disabled={submitting}>
        {submitting ? busyLabel : label}
      </Button>
      {children}
    </div>
  );
}

/** What a form or action says once it is done ("Profile saved"), read out politely */
export function DoneNote({ children }: { children: ReactNode }) {
  return (
    <span role="status" className="ac:text-sm ac:text-muted-foreground">
      {children}
    </span>
  );
}

/** Why an action failed, read out at once; nothing while there is nothing to say */
export function FailureLine({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="ac:text-sm ac:text-destructive">
      {message}
    </p>
  );
}
