import WebSocket from 'ws';

export type Msg = Record<string, unknown>;

/** A socket that records every message; `next` resolves with the first (new or recorded) message matching */
export interface RecordingSocket {
  ws: WebSocket;
  seen: Msg[];
  opened: Promise<void>;
  next(match: (m: Msg) => boolean): Promise<Msg>;
  closed: Promise<number>;
}

/** Opens recording sockets and remembers them, so a test's `afterEach` can drop them all */
export class Sockets {
  readonly #open: WebSocket[] = [];

  connect(url: string): RecordingSocket {
    const ws = new WebSocket(url);
    this.#open.push(ws);
    const seen: Msg[] = [];
    const waiters: Array<{ match: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Msg;
      seen.push(m);
      for (const w of [...waiters]) {
        if (w.match(m)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    });
    const opened = new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
    return {
      ws,
      seen,
      opened,
      next(match: (m: Msg) => boolean): Promise<Msg> {
        const found = seen.find(match);
        if (found) return Promise.resolve(found);
        return new Promise((resolve) => waiters.push({ match, resolve }));
      },
      closed: new Promise<number>((resolve) => ws.once('close', (code) => resolve(code))),
    };
  }

  /** A socket opened elsewhere (its own options), dropped with the rest */
  track(ws: WebSocket): WebSocket {
    this.#open.push(ws);
    return ws;
  }

  /** Drops every socket opened so far */
  terminateAll(): void {
    for (const s of this.#open) s.terminate();
    this.#open.length = 0;
  }
}
