import type { EnvironmentTarget } from '@kestrel/contracts';
import { getKestrelRuntime } from '@kestrel/shared-runtime';
import { useTradingEnvironment } from '@kestrel/shared-runtime/react';
import { Badge, Button } from '@kestrel/ui';
import { type ComponentProps, type ComponentType, lazy, Suspense, useId, useState } from 'react';
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

/** The badge says what the server reaches for this user, never a guess */
function EnvironmentBadge({ target, error }: { target: EnvironmentTarget | undefined; error?: string }) {
  if (!target && error) {
    return (
      <Badge variant="outline" title={error} aria-label={`Trading environment unknown: ${error}`}>
        Environment unknown
      </Badge>
    );
  }
  if (!target) {
    return (
      <Badge variant="outline" aria-label="Trading environment: checking with the server" aria-busy="true">
        Checking…
      </Badge>
    );
  }
  if (target.environment === 'mainnet') {
    return (
      <Badge variant="destructive" aria-label="Trading environment: mainnet, LIVE trading with real money">
        {target.label}
      </Badge>
    );
  }
  return (
    <Badge
      variant="secondary"
      aria-label={
        target.kind === 'simulator'
          ? 'Trading environment: testnet on the built-in simulator, demo funds'
          : 'Trading environment: testnet, simulation with fake funds'
      }
    >
      {target.label}
    </Badge>
  );
}

/**
 * Testnet / mainnet badge and switch (spec §4, issue 23). The server decides where this user's orders go: the badge
 * shows its answer, a switch is a server call (mainnet asks for the password again), and going LIVE asks first.
 * The runtime emits the spec's toast for each switch, and the server's reason when it refuses one.
 */
export function EnvironmentSwitch() {
  const { currentEnvironment, target, targets, loadError } = useTradingEnvironment();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const reasonId = useId();
  const live = currentEnvironment === 'mainnet';
  const other = targets?.find((t) => t.environment === (live ? 'testnet' : 'mainnet'));
  // An environment this server cannot reach is not offered: the button says why instead of failing on a click
  const unreachable = other && !other.configured ? (other.reason ?? 'Not available on this server') : null;
  const switchTo = async (env: 'testnet' | 'mainnet') => {
    setBusy(true);
    try {
      await getKestrelRuntime().environment.switchTo(env);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="sh:flex sh:items-center sh:gap-2">
      <EnvironmentBadge target={target} error={loadError} />
      {!target && loadError ? (
        <Button variant="ghost" size="sm" onClick={() => void getKestrelRuntime().environment.refresh()}>
          Retry
        </Button>
      ) : (
        // A disabled button shows no tooltip of its own: the wrapper carries it, the description tells readers
        <span title={unreachable ?? undefined} className="sh:inline-flex">
          <Button
            variant="ghost"
            size="sm"
            disabled={busy || !target || unreachable !== null}
            aria-describedby={unreachable ? reasonId : undefined}
            onClick={() => (live ? void switchTo('testnet') : setConfirming(true))}
          >
            {live ? 'Switch to testnet' : 'Switch to mainnet'}
          </Button>
          {unreachable && (
            <span id={reasonId} className="sh:sr-only">
              {unreachable}
            </span>
          )}
        </span>
      )}
      {confirming && (
        <Suspense fallback={null}>
          <ConfirmMainnetDialog
            onCancel={() => setConfirming(false)}
            onConfirm={() => {
              setConfirming(false);
              void switchTo('mainnet');
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
