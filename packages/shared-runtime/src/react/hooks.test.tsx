import { RuntimeConfigSchema } from '@kestrel/contracts';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createKestrelRuntime, type KestrelRuntime } from '../runtime';
import { createMemoryStorage } from '../storage/storage';
import { KestrelRuntimeProvider, useExchangeConnections, useSession, useTradingEnvironment } from './hooks';

const config = RuntimeConfigSchema.parse({
  apiBaseUrl: 'http://127.0.0.1:1',
  socketBaseUrl: 'ws://127.0.0.1:1',
  remotes: {
    dashboard: 'http://127.0.0.1:1/a.json',
    bots: 'http://127.0.0.1:1/b.json',
    exchange_connect: 'http://127.0.0.1:1/c.json',
    account: 'http://127.0.0.1:1/d.json',
  },
});

function Status() {
  const session = useSession();
  const env = useTradingEnvironment();
  const connections = useExchangeConnections();
  return (
    <p>
      {session.status} / {env.currentEnvironment} / {connections.binance.status}
    </p>
  );
}

let runtime: KestrelRuntime | undefined;
afterEach(() => runtime?.dispose());

describe('React bindings', () => {
  it('render the current state and re-render when it changes', async () => {
    runtime = createKestrelRuntime(config, { storage: createMemoryStorage() });
    const r = runtime;
    render(
      <KestrelRuntimeProvider runtime={r}>
        <Status />
      </KestrelRuntimeProvider>,
    );
    expect(screen.getByText('loading / testnet / disconnected')).toBeTruthy();
    await act(async () => {
      await r.start();
      r.environment.switchTo('mainnet');
    });
    expect(screen.getByText('signed-out / mainnet / disconnected')).toBeTruthy();
  });
});
