// The main entry's Button (a shared module), not a second copy bundled into this entry point with its Slot
// biome-ignore lint/style/noRestrictedImports: ui's own main entry (self-reference), not another workspace package
import { Button } from '@kestrel/ui';
import { type ReactNode, useState } from 'react';
import {
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  Dialog as DialogRoot,
  DialogTitle,
} from './dialog';

/** What a refused confirmation shows in the dialog */
export type ConfirmFailure = {
  message: string;
  /** The action may have gone through anyway (status unknown): confirming again stays off */
  final?: boolean;
};

export type ConfirmDialogProps = Omit<React.ComponentProps<typeof DialogContent>, 'title' | 'children'> & {
  /** `plan` (default): the sentence is exactly what will happen, read at body size; `note`: the usual muted line */
  tone?: 'plan' | 'note' | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** What will happen, in one sentence */
  description: ReactNode;
  confirmLabel: string;
  /** The way back without acting (default "Back") */
  cancelLabel?: string;
  /** The confirming button's label while the action is sent (default "Sending…") */
  pendingLabel?: string;
  /** Red confirming button: the action closes, cancels, deletes or reaches real money */
  destructive?: boolean;
  /** The action cannot be sent yet (an input in `children` is invalid) */
  confirmDisabled?: boolean;
  /**
   * The action. A promise keeps the dialog open and locked until it settles: fulfilled closes it, rejected shows
   * why and stays open. Anything else closes the dialog at once (the caller shows the progress itself)
   */
  onConfirm: () => unknown;
  /** Turns a rejection into what the dialog shows; called once per rejection (default: the error's message) */
  describeFailure?: (error: unknown) => ConfirmFailure;
  /** Inputs or notes under the sentence (a limit price, what else happens) */
  children?: ReactNode;
};

const messageOf = (error: unknown): ConfirmFailure => ({
  message: error instanceof Error ? error.message : String(error),
});

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * The one confirmation of the platform: says what will happen, sends once, and on a refusal shows why without
 * closing. While the action is on its way the dialog cannot be closed (no second send, no lost answer)
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  tone,
  confirmLabel,
  cancelLabel = 'Back',
  pendingLabel = 'Sending…',
  destructive = false,
  confirmDisabled = false,
  onConfirm,
  describeFailure = messageOf,
  children,
  showCloseButton = true,
  ...props
}: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ConfirmFailure | null>(null);

  const change = (next: boolean) => {
    if (pending) return;
    if (!next) setFailure(null);
    onOpenChange(next);
  };

  const confirm = async () => {
    setFailure(null);
    const sent = onConfirm();
    if (!isPromiseLike(sent)) {
      onOpenChange(false);
      return;
    }
    setPending(true);
    try {
      await sent;
      setPending(false);
      onOpenChange(false);
    } catch (error) {
      setPending(false);
      setFailure(describeFailure(error));
    }
  };

  return (
    <DialogRoot open={open} onOpenChange={change}>
      <DialogContent showCloseButton={showCloseButton && !pending} {...props}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription tone={tone ?? 'plan'}>{description}</DialogDescription>
        </DialogHeader>
        {children}
        {failure && (
          <p role="alert" className="ui:text-sm ui:text-destructive">
            {failure.message}
          </p>
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={pending}>
              {cancelLabel}
            </Button>
          </DialogClose>
          <Button
            variant={destructive ? 'destructive' : 'default'}
            disabled={pending || confirmDisabled || failure?.final === true}
            onClick={() => void confirm()}
          >
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </DialogRoot>
  );
}
