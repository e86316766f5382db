import { RemoteLoaderProvider } from '@kestrel/shared-runtime/federation';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AutoOpenConnectModal, forgetConnectPromptSkips } from './connect-exchange-prompt';

/** Stands in for the exchange-connect remote's modal: shows whether it is open and lets the test close it */
function FakeModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  if (!open) return null;
  return (
    <div role="dialog" aria-label="Connect Exchange">
      <button type="button" onClick={() => onOpenChange(false)}>
        Skip for Now
      </button>
    </div>
  );
}
const loader = (async () => FakeModal) as unknown as Parameters<typeof RemoteLoaderProvider>[0]['value'];

const renderPrompt = (props: { userId: string; anyConnected: boolean }) =>
  render(
    <RemoteLoaderProvider value={loader}>
      <AutoOpenConnectModal {...props} />
    </RemoteLoaderProvider>,
  );

const advance = async (ms: number) => {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
};

describe('connect-exchange modal auto-open (spec §2, §4: 1000 ms)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('opens 1000 ms after sign-in when no exchange is connected, not before', async () => {
    renderPrompt({ userId: 'u1', anyConnected: false });
    await advance(999);
    expect(screen.queryByRole('dialog')).toBeNull();
    await advance(1);
    expect(screen.getByRole('dialog', { name: 'Connect Exchange' })).toBeTruthy();
  });

  it('never opens when an exchange is connected', async () => {
    renderPrompt({ userId: 'u1', anyConnected: true });
    await advance(5_000);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('after Skip for Now it stays closed on the next page load, until sign-out forgets that', async () => {
    renderPrompt({ userId: 'u1', anyConnected: false });
    await advance(1_000);
    fireEvent.click(screen.getByRole('button', { name: 'Skip for Now' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    renderPrompt({ userId: 'u1', anyConnected: false });
    await advance(5_000);
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    forgetConnectPromptSkips();
    renderPrompt({ userId: 'u1', anyConnected: false });
    await advance(1_000);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
