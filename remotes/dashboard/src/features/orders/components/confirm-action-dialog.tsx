import { ConfirmDialog } from '@kestrel/ui/dialog';
import type { ReactNode } from 'react';
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
 * Every action that touches the account goes through this: ui's `ConfirmDialog` reading refusals as order
 * failures. After a "status unknown" the button stays off: the action may have gone through.
 */
export function ConfirmActionDialog({ sentence, onFailure, ...props }: ConfirmActionDialogProps) {
  return (
    <ConfirmDialog
      {...props}
      description={sentence}
      describeFailure={(error) => {
        const failure = failureOf(error);
        onFailure?.(failure);
        return { message: failureText(failure), final: failure.kind === 'unknown' };
      }}
    />
  );
}
