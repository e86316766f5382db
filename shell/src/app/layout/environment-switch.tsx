import { getKestrelRuntime } from '@kestrel/shared-runtime';
import { useTradingEnvironment } from '@kestrel/shared-runtime/react';
import { Badge, Button } from '@kestrel/ui';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@kestrel/ui/dialog';
import { useState } from 'react';

/**
 * Testnet / mainnet badge and switch (spec §4). Going LIVE asks first: a trader should never reach real money by
 * one stray click. The runtime emits the spec's toast for each switch.
 */
export function EnvironmentSwitch() {
  const { currentEnvironment } = useTradingEnvironment();
  const [confirming, setConfirming] = useState(false);
  const live = currentEnvironment === 'mainnet';
  const switchTo = (env: 'testnet' | 'mainnet') => getKestrelRuntime().environment.switchTo(env);

  return (
    <div className="sh:flex sh:items-center sh:gap-2">
      {live ? (
        <Badge variant="destructive" aria-label="Trading environment: mainnet, LIVE trading with real money">
          Mainnet · LIVE
        </Badge>
      ) : (
        <Badge variant="secondary" aria-label="Trading environment: testnet, simulation with fake funds">
          Testnet
        </Badge>
      )}
      <Button variant="ghost" size="sm" onClick={() => (live ? switchTo('testnet') : setConfirming(true))}>
        {live ? 'Switch to testnet' : 'Switch to mainnet'}
      </Button>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Switch to LIVE trading?</DialogTitle>
            <DialogDescription>
              On mainnet your bots and orders trade with real money on your exchange account.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              Stay on testnet
            </Button>
            <Button
              variant="destructive"
              onClick={() => {
                setConfirming(false);
                switchTo('mainnet');
              }}
            >
              Switch to mainnet
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
