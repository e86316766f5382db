import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export interface WsConnection {
  socket: WebSocket;
  path: string;
  query: URLSearchParams;
}

type FrameHandler = (frame: Record<string, unknown>, conn: WsConnection) => void;

/**
 * A real `ws` server on 127.0.0.1 for the bus tests. Port 0 on first start; `restart()` listens again on the same
 * port so a client can reconnect to it. Tests wait on `nextConnection()` / `nextFrame()`, never on sleeps.
 */
export async function startWsServer(
  onFrame: FrameHandler = () => {},
  options: {
    /** The one token accepted (any when unset) */
    token?: string;
    /** How a wrong token is refused: HTTP 401 at the handshake, or (like the Kestrel server) accepted, then closed 4401 */
    refuse?: 'handshake' | 'close-4401';
  } = {},
) {
  let port = 0;
  let wss: WebSocketServer | undefined;
  const connections: WsConnection[] = [];
  const waiters: Array<(c: WsConnection) => void> = [];
  const frameWaiters: Array<(f: Record<string, unknown>) => void> = [];
  const frames: Record<string, unknown>[] = [];

  const listen = async () => {
    const server = new WebSocketServer({
      host: '127.0.0.1',
      port,
      // Like the real endpoint: a wrong `token` query parameter is refused at the handshake with 401
      verifyClient: (info, done) => {
        const token = new URL(info.req.url ?? '/', 'http://localhost').searchParams.get('token');
        if (options.token === undefined || token === options.token || options.refuse === 'close-4401')
          done(true);
        else done(false, 401, 'Unauthorized');
      },
    });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as AddressInfo).port;
    server.on('connection', (socket, req) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const conn: WsConnection = { socket, path: url.pathname, query: url.searchParams };
      connections.push(conn);
      if (options.token !== undefined && url.searchParams.get('token') !== options.token) {
        socket.close(4401, 'Access token is invalid. Please sign in again.');
        waiters.shift()?.(conn);
        return;
      }
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data)) as Record<string, unknown>;
        frames.push(frame);
        frameWaiters.shift()?.(frame);
        onFrame(frame, conn);
      });
      waiters.shift()?.(conn);
    });
    wss = server;
  };

  const stop = async () => {
    const server = wss;
    wss = undefined;
    if (!server) return;
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  await listen();
  return {
    get url() {
      return `ws://127.0.0.1:${port}/ws`;
    },
    connections,
    frames,
    nextConnection: () => new Promise<WsConnection>((resolve) => waiters.push(resolve)),
    nextFrame: () => new Promise<Record<string, unknown>>((resolve) => frameWaiters.push(resolve)),
    broadcast(message: unknown) {
      for (const client of wss?.clients ?? []) client.send(JSON.stringify(message));
    },
    stop,
    restart: listen,
  };
}

export type TestWsServer = Awaited<ReturnType<typeof startWsServer>>;

/** JSON-RPC reply the way the server sends tool results: the value as a JSON string in content[0].text */
export function toolResult(id: unknown, value: unknown) {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(value) }] } };
}
