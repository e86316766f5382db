import '../../../styles.css';
import { useKestrelRuntime, useObservable } from '@kestrel/shared-runtime/react';
import { Button } from '@kestrel/ui';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@kestrel/ui/dialog';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ExchangeGrid } from './exchange-grid';

/**
 * The form (react-hook-form, zod and the contracts' schemas: ~39 KB gzip) loads on the Binance step, not with the
 * modal that opens by itself for every trader without an exchange
 */
const BinanceCredentialsForm = lazy(() =>
  import('./binance-credentials-form').then((m) => ({ default: m.BinanceCredentialsForm })),
);

/** Spec §4, §9: after a successful connect the modal closes this long later */
export const CLOSE_AFTER_SUCCESS_MS = 1500;

export type ConnectModalStep = 'selection' | 'binance';

export type ConnectExchangeModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called once a successful connect has closed the modal */
  onComplete?: () => void;
  /** The step the modal opens on: the selection (default), or the Binance form (a card's Connect in settings) */
  initialStep?: ConnectModalStep;
};

const BENEFITS = [
  {
    title: 'Real-time Data',
    text: 'Live prices, positions and balances straight from your exchange account.',
  },
  {
    title: 'Automated Trading',
    text: 'Let your bots place and manage futures orders around the clock.',
  },
  {
    title: 'Secure Connection',
    text: 'Your secret key is encrypted on the Kestrel server and never kept in the browser.',
  },
] as const;

/** Spec §2 "Connect Exchange modal": selection, then the Binance form; §4 "Connect modal flow" */
export default function ConnectExchangeModal({
  open,
  onOpenChange,
  onComplete,
  initialStep = 'selection',
}: ConnectExchangeModalProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="xc:max-w-3xl">
        {/* Mounted per opening: every opening starts on `initialStep`, and closing forgets the step */}
        <ConnectSteps
          initialStep={initialStep}
          close={() => onOpenChange(false)}
          {...(onComplete ? { onComplete } : {})}
        />
      </DialogContent>
    </Dialog>
  );
}

function ConnectSteps({
  initialStep,
  close,
  onComplete,
}: {
  initialStep: ConnectModalStep;
  close: () => void;
  onComplete?: () => void;
}) {
  const { exchanges } = useKestrelRuntime();
  const anyConnected = useObservable(
    exchanges.hasConnectedExchange$,
    Object.values(exchanges.connections).some((c) => c.status === 'connected'),
  );
  const [step, setStep] = useState<ConnectModalStep>(initialStep);
  const [connected, setConnected] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const onConnected = () => {
    setConnected(true);
    closeTimer.current = setTimeout(() => {
      setStep('selection');
      close();
      onComplete?.();
    }, CLOSE_AFTER_SUCCESS_MS);
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Connect Exchange</DialogTitle>
        <DialogDescription>
          {step === 'selection' ? 'Choose an exchange to start trading.' : 'Enter your API credentials'}
        </DialogDescription>
      </DialogHeader>
      {step === 'selection' ? (
        <>
          <ul aria-label="Benefits" className="xc:grid xc:gap-3 xc:sm:grid-cols-3">
            {BENEFITS.map((b) => (
              <li key={b.title} className="xc:rounded-lg xc:border xc:border-border xc:p-3">
                <p className="xc:text-sm xc:font-medium">{b.title}</p>
                <p className="xc:text-xs xc:text-muted-foreground">{b.text}</p>
              </li>
            ))}
          </ul>
          <ExchangeGrid onConnect={(id) => id === 'binance' && setStep('binance')} />
          <DialogFooter className="xc:items-center xc:sm:justify-between">
            <p className="xc:text-sm xc:text-muted-foreground">
              You can connect an exchange later in Settings.
            </p>
            <div className="xc:flex xc:gap-2">
              <Button variant="outline" onClick={close}>
                Skip for Now
              </Button>
              {anyConnected && <Button onClick={close}>Continue</Button>}
            </div>
          </DialogFooter>
        </>
      ) : (
        <>
          <Button
            variant="ghost"
            className="xc:w-fit"
            onClick={() => setStep('selection')}
            disabled={connected}
          >
            <span aria-hidden="true">←</span> Back
          </Button>
          {connected ? (
            <p role="status" className="xc:text-sm xc:font-medium xc:text-success">
              Binance connected.
            </p>
          ) : (
            <Suspense fallback={<p className="xc:text-sm xc:text-muted-foreground">Loading...</p>}>
              <BinanceCredentialsForm
                onCancel={() => setStep('selection')}
                onConnected={onConnected}
                // Swallowed here: the reason shows on the Binance card of the selection (and in a toast)
                onFailed={() => setStep('selection')}
              />
            </Suspense>
          )}
        </>
      )}
    </>
  );
}
