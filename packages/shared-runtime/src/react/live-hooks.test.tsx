import { SOCKET_STREAMS } from '@kestrel/contracts';
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { runtimeOnSocket, socketTestScope } from '../test/test-runtime';
import { startWsServer, toolResult } from '../test/ws-server';
import { KestrelRuntimeProvider } from './hooks';
import { useLiveCandles, useLiveStatus, useLiveTickers } from './live-hooks';

function Watch({ symbols }: { symbols: string[] }) {
  const status = useLiveStatus();
  const tickers = useLiveTickers(symbols);
  return (
    <p>
      {status}: {symbols.map((s) => `${s}=${tickers.get(s)?.lastPrice ?? '-'}`).join(' ')}
    </p>
  );
}

function Chart() {
  const [close, setClose] = useState('none');
  useLiveCandles('SOLUSDT', '5m', (c) => setClose(`${c.close}${c.closed ? ' closed' : ''}`));
  return <p>candle {close}</p>;
}

const scope = socketTestScope();

/** A runtime connected to a socket server that answers every request with success, as the live data's server does */
async function connectedToAckingServer() {
  const server = await startWsServer((frame, conn) => {
    if ('id' in frame) conn.socket.send(JSON.stringify(toolResult(frame.id, { ok: true })));
  });
  scope.ws = server;
  const r = runtimeOnSocket(server.url);
  scope.runtime = r;
  act(() => r.bus.connect());
  return { server, r };
}

describe('live hooks', () => {
  it('show live tickers and candles of what the mounted components watch, and the paused state', async () => {
    const { server, r } = await connectedToAckingServer();
    const view = render(
      <KestrelRuntimeProvider runtime={r}>
        <Watch symbols={['BTCUSDT', 'ETHUSDT']} />
        <Chart />
      </KestrelRuntimeProvider>,
    );
    await screen.findByText('live: BTCUSDT=- ETHUSDT=-');
    // The two components' watches reach the server as one subscription
    const subscribed = await server.nextFrame();
    expect(subscribed).toMatchObject({
      method: 'streams/subscribe',
      params: {
        streams: [...SOCKET_STREAMS],
        symbols: ['BTCUSDT', 'ETHUSDT'],
        candles: [{ symbol: 'SOLUSDT', interval: '5m' }],
      },
    });

    act(() => {
      server.broadcast({
        jsonrpc: '2.0',
        method: 'notifications/ticker',
        params: { symbol: 'ETHUSDT', lastPrice: '3120.55', time: 1 },
      });
      server.broadcast({
        jsonrpc: '2.0',
        method: 'notifications/candle',
        params: {
          symbol: 'SOLUSDT',
          interval: '5m',
          openTime: 0,
          closeTime: 299_999,
          open: '150',
          high: '151',
          low: '149',
          close: '150.5',
          volume: '10',
          closed: true,
          time: 300_000,
        },
      });
    });
    expect(await screen.findByText('live: BTCUSDT=- ETHUSDT=3120.55')).toBeTruthy();
    expect(await screen.findByText('candle 150.5 closed')).toBeTruthy();

    await act(async () => {
      await server.stop();
    });
    expect(await screen.findByText('paused: BTCUSDT=- ETHUSDT=3120.55')).toBeTruthy();

    // Unmounted: the runtime tells the socket it watches nothing any more
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.live.subscription).toEqual({ streams: [...SOCKET_STREAMS], symbols: [], candles: [] });
  });

  it("renders a frame's ticker pushes in that frame, before it is painted (not in a task after it)", async () => {
    const { server, r } = await connectedToAckingServer();
    render(
      <KestrelRuntimeProvider runtime={r}>
        <Watch symbols={['ETHUSDT']} />
      </KestrelRuntimeProvider>,
    );
    await screen.findByText('live: ETHUSDT=-');
    await server.nextFrame();
    // Frames run when the test runs them, as a browser runs them: outside React's act()
    const frames: FrameRequestCallback[] = [];
    const raf = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb));
    const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    onTestFinished(() => {
      raf.mockRestore();
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    });

    server.broadcast({
      jsonrpc: '2.0',
      method: 'notifications/ticker',
      params: { symbol: 'ETHUSDT', lastPrice: '3120.55', time: 1 },
    });
    await vi.waitFor(() => expect(frames).toHaveLength(1));
    frames[0]?.(performance.now());
    // Right after the frame's callbacks, where the browser lays out and paints
    expect(screen.getByText('live: ETHUSDT=3120.55')).toBeTruthy();
  });
});
