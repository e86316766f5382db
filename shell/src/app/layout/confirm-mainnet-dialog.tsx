import { ConfirmDialog } from '@kestrel/ui/dialog';

/** Going LIVE asks first: a trader should never reach real money by one stray click */
export default function ConfirmMainnetDialog({
  onConfirm,
  onCancel,
}: {
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onCancel()}
      title="Switch to LIVE trading?"
      description="On mainnet your orders trade with real money on your Binance account, and new bots trade there too. Bots you already run keep trading where they were created. Kestrel asks for your password again unless you gave it in the last 5 minutes."
      tone="note"
      cancelLabel="Stay on testnet"
      confirmLabel="Switch to mainnet"
      destructive
      onConfirm={onConfirm}
    />
  );
}
