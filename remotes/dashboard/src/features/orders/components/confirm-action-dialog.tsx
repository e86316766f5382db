import { Button } from '@kestrel/ui';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@kestrel/ui/dialog';
import { type ReactNode, useState } from 'react';
import { failureOf, failureText, type OrderFailure } from '../lib/order-failure';

export interface ConfirmActionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's name: "Close position", "Cancel order" */
  title: string;
  /** Exactly what will happen, in one sentence ("Close 0.010 BTCUSDT long at market, reduce-only") */
  sentence: string;
  /** The confirming button's label: "Close position" */
  confirmLabel: string;
  /** Sends the action; a rejection is shown in the dialog, which stays open */
  onConfirm: () => Promise<unknown>;
  /** The action cannot be sent yet (an input under the sentence is invalid) */
  confirmDisabled?: boolean;
  /** Closing a position, cancelling: red; placing an order: the primary colour */
  destructive?: boolean;
  onFailure?: (failure: OrderFailure) => void;
  /** Inputs the sentence depends on (a limit price, a leverage) */
  children?: ReactNode;
}

/**
 * Every action that touches the account goes through this: it says what will happen, sends once, and on failure
 * shows why, in the dialog. After a "status unknown" the button stays off: the action may have gone through.
 */
export function ConfirmActionDialog({
  open,
  onOpenChange,
  title,
  sentence,
  confirmLabel,
  onConfirm,
  confirmDisabled = false,
  destructive = false,
  onFailure,
  children,
}: ConfirmActionDialogProps) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<OrderFailure | null>(null);

  const change = (next: boolean) => {
    if (pending) return;
    if (!next) setFailure(null);
    onOpenChange(next);
  };

  const confirm = async () => {
    setPending(true);
    setFailure(null);
    try {
      await onConfirm();
      setPending(false);
      onOpenChange(false);
    } catch (error) {
      const f = failureOf(error);
      setPending(false);
      setFailure(f);
      onFailure?.(f);
    }
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent showCloseButton={!pending}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription className="db:text-base db:text-foreground">{sentence}</DialogDescription>
        </DialogHeader>
        {children}
        {failure && (
          <p role="alert" className="db:text-sm db:text-destructive">
            {failureText(failure)}
          </p>
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={pending}>
              Back
            </Button>
          </DialogClose>
          <Button
            variant={destructive ? 'destructive' : 'default'}
            disabled={pending || confirmDisabled || failure?.kind === 'unknown'}
            onClick={confirm}
          >
            {pending ? 'Sending…' : confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
