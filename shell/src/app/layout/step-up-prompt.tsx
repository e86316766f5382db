import { useKestrelRuntime, useObservable } from '@kestrel/shared-runtime/react';
import { type ComponentProps, type ComponentType, lazy, Suspense, useEffect } from 'react';
import type * as StepUpDialogModule from './step-up-dialog';

/** Radix Dialog loads when a prompt is needed, not with every signed-in page (as the mainnet confirmation does) */
const StepUpDialog = lazy<ComponentType<ComponentProps<typeof StepUpDialogModule.default>>>(() =>
  import('./step-up-dialog').catch((error: unknown) => {
    console.error('The password prompt could not load', error);
    return { default: () => null };
  }),
);

/**
 * The page's password prompt: registered with the runtime while signed in, so a guarded call of any remote
 * (exchange keys, mainnet, live bots) refused with STEP_UP_REQUIRED opens it and goes on once confirmed
 */
export function StepUpPrompt() {
  const { stepUp } = useKestrelRuntime();
  useEffect(() => stepUp.attach(), [stepUp]);
  const pending = useObservable(stepUp.pending$, stepUp.pending);
  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <StepUpDialog stepUp={stepUp} />
    </Suspense>
  );
}
