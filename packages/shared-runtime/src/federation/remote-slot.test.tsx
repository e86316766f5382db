import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RemoteComponentLoader } from './remote-loader';
import { RemoteLoaderProvider, RemoteSlot } from './remote-slot';

type Pending = {
  resolve: (c: ComponentType<never>) => void;
  reject: (e: unknown) => void;
  fresh: boolean | undefined;
};

/** Stands in for the federation runtime: each load waits until the test settles it */
function controllableLoader() {
  const calls: Pending[] = [];
  const loader = ((_remote, _module, options) =>
    new Promise<ComponentType<never>>((resolve, reject) =>
      calls.push({ resolve, reject, fresh: options?.fresh }),
    )) as RemoteComponentLoader;
  return { loader, calls };
}

const flush = () => act(async () => {});

function Page({ label = 'Dashboard content' }: { label?: string }) {
  return <p>{label}</p>;
}

function Crashing(): never {
  throw new Error('remote bug');
}

describe('RemoteSlot', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows a spinner while loading, then the remote component with its props', async () => {
    const { loader, calls } = controllableLoader();
    render(
      <RemoteLoaderProvider value={loader}>
        <RemoteSlot
          remote="dashboard"
          module="./DashboardPage"
          title="Dashboard"
          props={{ label: 'Hello' }}
        />
      </RemoteLoaderProvider>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading Dashboard...');
    calls[0]?.resolve(Page);
    await flush();
    expect(screen.getByText('Hello')).toBeTruthy();
  });

  it('offers a fallback with Retry when the remote is down, and retry loads afresh', async () => {
    const { loader, calls } = controllableLoader();
    render(
      <RemoteLoaderProvider value={loader}>
        <RemoteSlot remote="bots" module="./BotHubPage" title="Bot hub" />
      </RemoteLoaderProvider>,
    );
    calls[0]?.reject(new Error('manifest unreachable'));
    await flush();
    expect(screen.getByRole('alert').textContent).toContain('Bot hub is unavailable right now');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(calls[1]?.fresh).toBe(true);
    calls[1]?.resolve(() => <p>Bots are back</p>);
    await flush();
    expect(screen.getByText('Bots are back')).toBeTruthy();
  });

  it('shows the slow fallback at the timeout, not before, and still shows the remote if it arrives late', async () => {
    const { loader, calls } = controllableLoader();
    render(
      <RemoteLoaderProvider value={loader}>
        <RemoteSlot remote="account" module="./AccountPage" title="Account" timeoutMs={10_000} />
      </RemoteLoaderProvider>,
    );
    act(() => vi.advanceTimersByTime(9_999));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('alert').textContent).toContain('Account is taking longer than usual');
    calls[0]?.resolve(() => <p>Account loaded late</p>);
    await flush();
    expect(screen.getByText('Account loaded late')).toBeTruthy();
  });

  it('keeps a remote that arrived in time on screen after the timeout has passed', async () => {
    const { loader, calls } = controllableLoader();
    render(
      <RemoteLoaderProvider value={loader}>
        <RemoteSlot remote="dashboard" module="./DashboardPage" title="Dashboard" />
      </RemoteLoaderProvider>,
    );
    calls[0]?.resolve(Page);
    await flush();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('Dashboard content')).toBeTruthy();
    expect(screen.queryByText('Dashboard is taking longer than usual')).toBeNull();
  });

  it('contains a remote that throws while rendering; its neighbour keeps working', async () => {
    const { loader, calls } = controllableLoader();
    render(
      <RemoteLoaderProvider value={loader}>
        <RemoteSlot remote="dashboard" module="./DashboardPage" title="Dashboard" />
        <RemoteSlot remote="bots" module="./BotHubPage" title="Bot hub" />
      </RemoteLoaderProvider>,
    );
    calls[0]?.resolve(Crashing);
    calls[1]?.resolve(() => <p>Bot hub content</p>);
    await flush();
    expect(screen.getByRole('alert').textContent).toContain('Dashboard stopped working');
    expect(screen.getByText('Bot hub content')).toBeTruthy();
  });

  it('in quiet mode shows nothing while loading and nothing when the remote fails', async () => {
    const { loader, calls } = controllableLoader();
    const { container } = render(
      <RemoteLoaderProvider value={loader}>
        <RemoteSlot remote="exchange_connect" module="./ConnectExchangeModal" title="Connect" quiet />
      </RemoteLoaderProvider>,
    );
    expect(container.innerHTML).toBe('');
    calls[0]?.reject(new Error('down'));
    await flush();
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
