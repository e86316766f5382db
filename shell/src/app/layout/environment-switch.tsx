import { getKestrelRuntime } from '@kestrel/shared-runtime';
import { useTradingEnvironment } from '@kestrel/shared-runtime/react';
import { Badge, Button } from '@kestrel/ui';
import { type ComponentProps, type ComponentType, lazy, Suspense, useState } from 'react';
import type * as ConfirmMainnetDialogModule from './confirm-mainnet-dialog';

/**
 * Radix Dialog (~13 KB gzip with its styles) loads when the trader asks for mainnet, not with every signed-in page.
 * If it cannot load, the switch does nothing: never LIVE without the confirmation.
 */
const ConfirmMainnetDialog = lazy<ComponentType<ComponentProps<typeof ConfirmMainnetDialogModule.default>>>(
  () =>
    import('./confirm-mainnet-dialog').catch((error: unknown) => {
      console.error('The mainnet confirmation could not load', error);
      return { default: () => null };
    }),
);

/**
 * Testnet / mainnet badge and switch (spec §4). Going LIVE asks first. The runtime emits the spec's toast for each
 * switch.
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
      {confirming && (
        <Suspense fallback={null}>
          <ConfirmMainnetDialog
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              switchTo('mainnet');
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
