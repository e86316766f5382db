import { Button } from '@kestrel/ui';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@kestrel/ui/dialog';

/** Going LIVE asks first: a trader should never reach real money by one stray click */
export default function ConfirmMainnetDialog({
  onConfirm,
  onCancel,
}: {
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Switch to LIVE trading?</DialogTitle>
          <DialogDescription>
            On mainnet your orders trade with real money on your Binance account, and new bots trade there
            too. Bots you already run keep trading where they were created. Kestrel asks for your password
            again unless you gave it in the last 5 minutes.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            Stay on testnet
          </Button>
          <Button variant="destructive" onClick={onConfirm}>
            Switch to mainnet
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
