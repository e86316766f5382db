import type { SymbolInfo } from '@kestrel/contracts';
import { useRef } from 'react';
import { useApplyProtection } from '../hooks/use-apply-protection';
import { precisionOf } from '../lib/describe-action';
import { protectionError, protectionValue } from '../lib/protection';
import { describeMove, type MovableProtection } from '../lib/protection-move';
import { ConfirmActionDialog } from './confirm-action-dialog';

/**
 * The confirmation of a take-profit or stop-loss dragged on the chart to `to`: the old order is canceled and one
 * at the new trigger placed (Binance cannot modify a conditional order), as the TP/SL dialog does. A trigger on the
 * wrong side of the mark (it would fire at once) is said and cannot be confirmed
 */
export default function MoveProtectionDialog({
  protection,
  to,
  info,
  onClose,
}: {
  protection: MovableProtection;
  /** The new trigger, on the symbol's tick */
  to: string;
  info: SymbolInfo | undefined;
  /** Closed: `sentAt` is when a confirmed move was on the exchange (the line holds it until the orders say so) */
  onClose: (sentAt?: number) => void;
}) {
  const { kind, position, order } = protection;
  const applyChanges = useApplyProtection(position);
  const error = protectionError(position, kind, to, info);
  const from = protectionValue(kind, order);
  // A ref, not a variable: the dialog renders again between the confirm and its closing
  const sentAt = useRef<number | undefined>(undefined);
  return (
    <ConfirmActionDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose(sentAt.current);
      }}
      title={kind === 'takeProfit' ? 'Move take-profit' : 'Move stop-loss'}
      sentence={describeMove(position, kind, from, to, precisionOf(info).price)}
      confirmLabel={kind === 'takeProfit' ? 'Move take-profit' : 'Move stop-loss'}
      confirmDisabled={error !== undefined}
      onConfirm={async () => {
        await applyChanges([{ kind, action: 'set', value: to, replaces: order }]);
        // On the exchange now: open orders fetched from here on hold the moved order
        sentAt.current = Date.now();
      }}
    >
      {error && (
        <p role="alert" className="db:text-sm db:text-destructive">
          {error}
        </p>
      )}
    </ConfirmActionDialog>
  );
}
