import {
  LIVE_EVENT_METHODS,
  LIVE_EVENT_SCHEMAS,
  type LiveEventKind,
  type LiveEventNotice,
  SOCKET_STREAMS,
} from '@kestrel/contracts';
import type { Database } from '../../../lib/database/database';
import { PgFanout } from './pg-fanout';

// The contract's stream names must be exactly the push kinds; this line stops compiling if they drift
const STREAM_KINDS: readonly LiveEventKind[] = SOCKET_STREAMS;

/** One push: its kind and the notice the contract describes for that kind */
export type LiveEvent = { [K in LiveEventKind]: { kind: K; data: LiveEventNotice[K] } }[LiveEventKind];

/** Where a push goes: one user's sockets, or every socket */
export type PushTarget = string | 'all';

/** A socket as the bus sees it; `streams` is what the client subscribed to (all until it says otherwise) */
export interface BusConnection {
  readonly userId: string;
  /** The sign-in session the socket's token belongs to: a socket ends with its session */
  readonly sessionId: string;
  /** Closes the socket with an application close code */
  end(code: number, reason: string): void;
  streams: ReadonlySet<LiveEventKind>;
  /** Sends one text frame; false when the socket cannot take it (closed or too far behind) */
  send(frame: string): boolean;
}

export class InvalidLiveEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidLiveEventError';
  }
}

export const ALL_STREAMS: ReadonlySet<LiveEventKind> = new Set(STREAM_KINDS);

interface FanoutMessage {
  t: PushTarget;
  k: LiveEventKind;
  p: unknown;
}

/**
 * Server pushes to live sockets. `publish` goes through PostgreSQL NOTIFY even on a single instance, so one path
 * serves one process or many: every instance listening on the database's channel delivers to its own sockets.
 */
export class SocketBus {
  private readonly byUser = new Map<string, Set<BusConnection>>();
  private readonly fanout: PgFanout;
  private count = 0;

  constructor(db: Database, channel: string) {
    this.fanout = new PgFanout(db, channel, (message) => this.deliver(message));
  }

  get channel(): string {
    return this.fanout.channel;
  }

  /** Sockets connected to this instance */
  get connectionCount(): number {
    return this.count;
  }

  async start(): Promise<void> {
    await this.fanout.start();
  }

  async close(): Promise<void> {
    await this.fanout.close();
  }

  /** Registers a socket; returns the function that removes it */
  add(connection: BusConnection): () => void {
    let set = this.byUser.get(connection.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(connection.userId, set);
    }
    set.add(connection);
    this.count += 1;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.count -= 1;
      const current = this.byUser.get(connection.userId);
      current?.delete(connection);
      if (current?.size === 0) this.byUser.delete(connection.userId);
    };
  }

  /**
   * Closes the sockets whose session has ended since they connected (logout, revocation, refresh-token reuse,
   * absolute expiry): the token was checked once at connect, and pushes must not outlive the sign-in.
   * `liveSessions` answers which of the given session ids are still live. Returns the number of sockets closed.
   */
  async endSocketsOfEndedSessions(
    liveSessions: (ids: string[]) => Promise<ReadonlySet<string>>,
    code: number,
    reason: string,
  ): Promise<number> {
    const all = [...this.byUser.values()].flatMap((set) => [...set]);
    if (all.length === 0) return 0;
    const live = await liveSessions([...new Set(all.map((c) => c.sessionId))]);
    let ended = 0;
    for (const c of all) {
      if (live.has(c.sessionId)) continue;
      c.end(code, reason);
      ended += 1;
    }
    return ended;
  }

  /**
   * Publishes a push to `target` (a user id, or 'all') on every server instance. The notice is checked against its
   * contract first: a malformed push is a bug in the publisher, reported to it rather than sent to browsers.
   */
  async publish(target: PushTarget, event: LiveEvent): Promise<void> {
    const schema = LIVE_EVENT_SCHEMAS[event.kind];
    if (!schema) throw new InvalidLiveEventError(`Unknown push kind "${String(event.kind)}"`);
    const parsed = schema.safeParse(event.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidLiveEventError(
        `Invalid ${event.kind} push: ${issue?.path.join('.') || 'notice'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const message: FanoutMessage = { t: target, k: event.kind, p: parsed.data };
    await this.fanout.publish(JSON.stringify(message));
  }

  /** Delivers one fan-out message to the matching local sockets; the frame is serialised once for all of them */
  private deliver(raw: string): void {
    let message: FanoutMessage;
    try {
      message = JSON.parse(raw) as FanoutMessage;
    } catch {
      return;
    }
    const method = LIVE_EVENT_METHODS[message.k];
    if (!method) return;
    const frame = JSON.stringify({ jsonrpc: '2.0', method, params: message.p });
    if (message.t === 'all') {
      for (const set of this.byUser.values())
        for (const c of set) if (c.streams.has(message.k)) c.send(frame);
      return;
    }
    const set = this.byUser.get(message.t);
    if (set) for (const c of set) if (c.streams.has(message.k)) c.send(frame);
  }
}

/** The NOTIFY channel of a database schema: instances sharing a schema share pushes, other schemas stay apart */
export async function channelFor(db: Database): Promise<string> {
  const [row] = await db.query<{ schema: string | null }>('SELECT current_schema() AS schema');
  const schema = (row?.schema ?? 'public').toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `kestrel_socket_${schema}`.slice(0, 63);
}
