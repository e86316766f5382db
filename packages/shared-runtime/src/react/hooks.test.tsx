import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { createKestrelRuntime } from '../runtime';
import { createMemoryStorage } from '../storage/storage';
import { runtimeOnSocket, socketTestScope, testConfig } from '../test/test-runtime';
import { startWsServer } from '../test/ws-server';
import {
  KestrelRuntimeProvider,
  useExchangeConnections,
  useLiveEvent,
  useSession,
  useSocketStatus,
  useTradingEnvironment,
} from './hooks';

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

function LastPrice() {
  const [price, setPrice] = useState('none');
  const status = useSocketStatus();
  useLiveEvent('ticker', (t) => setPrice(t.lastPrice));
  return (
    <p>
      {status}: {price}
    </p>
  );
}

const scope = socketTestScope();

describe('React bindings', () => {
  it('render the current state and re-render when it changes', async () => {
    const r = createKestrelRuntime(testConfig(), { storage: createMemoryStorage() });
    scope.runtime = r;
    render(
      <KestrelRuntimeProvider runtime={r}>
        <Status />
      </KestrelRuntimeProvider>,
    );
    expect(screen.getByText('loading / testnet / disconnected')).toBeTruthy();
    await act(async () => {
      await r.start();
    });
    // The session's change re-renders; the environment is the server's to change (trading-environment tests)
    expect(screen.getByText('signed-out / testnet / disconnected')).toBeTruthy();
  });

  it('delivers server pushes to components without polling', async () => {
    const ws = await startWsServer();
    scope.ws = ws;
    const r = runtimeOnSocket(ws.url);
    scope.runtime = r;
    render(
      <KestrelRuntimeProvider runtime={r}>
        <LastPrice />
      </KestrelRuntimeProvider>,
    );
    act(() => r.bus.connect());
    await screen.findByText('connected: none');
    act(() =>
      ws.broadcast({
        jsonrpc: '2.0',
        method: 'notifications/ticker',
        params: { symbol: 'ETHUSDT', lastPrice: '3120.55', time: 1 },
      }),
    );
    expect(await screen.findByText('connected: 3120.55')).toBeTruthy();
  });
});
