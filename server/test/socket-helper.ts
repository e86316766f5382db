import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { TestApp } from './helper';

/** What `stepping` moves: a simulator's clock and its market (`SimServer`) */
interface SimStep {
  clock: { now(): number; set(ms: number): void };
  sim: { tick(): void };
}

/** Listens on an OS-chosen loopback port and returns the socket base URL (`ws://host:port/ws`) */
export async function listenWs(t: TestApp): Promise<string> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/ws`;
}

export interface WsFrame {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: { content?: { type?: string; text: string }[]; [k: string]: unknown };
  error?: { code: number; message: string };
}

/** A raw `ws` client that queues frames so a test can wait for the next one (no sleeps) */
export class TestSocket {
  readonly frames: WsFrame[] = [];
  private waiters: { match: (f: WsFrame) => boolean; resolve: (f: WsFrame) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as WsFrame;
      const i = this.waiters.findIndex((w) => w.match(frame));
      if (i >= 0) this.waiters.splice(i, 1)[0]?.resolve(frame);
      else this.frames.push(frame);
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static async open(url: string): Promise<TestSocket> {
    const ws = new WebSocket(url);
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return socket;
  }

  /** The first queued or next arriving frame matching `match` */
  next(match: (f: WsFrame) => boolean = () => true): Promise<WsFrame> {
    const i = this.frames.findIndex(match);
    if (i >= 0) return Promise.resolve(this.frames.splice(i, 1)[0] as WsFrame);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** Sends a request and waits for the reply with its id */
  async request(method: string, params?: unknown): Promise<WsFrame> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return this.next((f) => f.id === id);
  }

  /** Calls a tool and returns the parsed `result.content[0].text` */
  async tool(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
    const reply = await this.request('tools/call', { name, arguments: args });
    if (reply.error) throw new Error(reply.error.message);
    return JSON.parse(reply.result?.content?.[0]?.text ?? 'null');
  }

  /** Sends raw text (or bytes) and waits for the next reply frame (one with an id key) */
  async raw(data: string | Buffer): Promise<WsFrame> {
    this.ws.send(data);
    return this.next((f) => 'id' in f);
  }

  async close(): Promise<void> {
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.close();
    await this.closed;
  }
}

export const wsUrl = (base: string, token: string, clientId = 'client-test') =>
  `${base}/${clientId}?token=${encodeURIComponent(token)}`;

/**
 * Moves the simulator's time a second at a time until `done` settles: market payloads flow only then. Its result
 */
export async function stepping<T>({ clock, sim }: SimStep, done: Promise<T>): Promise<T> {
  let settled = false;
  void done.finally(() => {
    settled = true;
  });
  while (!settled) {
    clock.set(clock.now() + 1000);
    sim.tick();
    await new Promise((r) => setTimeout(r, 10));
  }
  return done;
}

/** Matches a push of `method` whose params `match` (for `TestSocket.next`) */
export const pushOf =
  (method: string, match: (p: Record<string, unknown>) => boolean = () => true) =>
  (f: WsFrame) =>
    f.method === method && match(f.params ?? {});
