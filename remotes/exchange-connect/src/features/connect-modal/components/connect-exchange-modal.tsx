import '../../../styles.css';
import { Button } from '@kestrel/ui';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@kestrel/ui/dialog';
import ExchangeConnections from '../../connections/components/exchange-connections';

export type ConnectExchangeModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** The connect-exchange modal (selection step); the Binance form arrives with the exchange-connect issue */
export default function ConnectExchangeModal({ open, onOpenChange }: ConnectExchangeModalProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="xc:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Connect Exchange</DialogTitle>
          <DialogDescription>Choose an exchange to start trading.</DialogDescription>
        </DialogHeader>
        <ExchangeConnections />
        <DialogFooter className="xc:items-center xc:sm:justify-between">
          <p className="xc:text-sm xc:text-muted-foreground">
            You can connect an exchange later in Settings.
          </p>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Skip for Now
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
