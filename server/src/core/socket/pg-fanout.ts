import { randomUUID } from 'node:crypto';
import type { Clock, Timer } from '../../lib/clock';
import type { Database } from '../../lib/database/database';

/** NOTIFY refuses payloads of 8000 bytes or more; frames stay well under it */
export const NOTIFY_PAYLOAD_LIMIT_BYTES = 7900;
/** Base64 characters per chunk of a large message (ASCII, so characters = bytes), leaving room for the header */
export const CHUNK_CHARS = 7000;
/** A chunked message whose parts have not all arrived by then is dropped (its sender's transaction failed) */
export const CHUNK_ASSEMBLY_TIMEOUT_MS = 10_000;

/**
 * Fan-out of socket pushes between server instances through PostgreSQL LISTEN/NOTIFY: every instance (this one
 * included) receives every message and delivers it to its own sockets. Messages over NOTIFY's limit are split
 * into chunks sent in one transaction (so they are committed together, in order) and joined on arrival; no table
 * is needed.
 *
 * Frame formats on the channel: `f|<message>` (whole) and `c|<id>|<seq>|<total>|<base64 part>` (chunk).
 */
export class PgFanout {
  private stop: (() => Promise<void>) | undefined;
  private readonly partial = new Map<string, { parts: string[]; received: number; timer: Timer }>();

  constructor(
    private readonly db: Database,
    readonly channel: string,
    private readonly onMessage: (message: string) => void,
    private readonly clock: Clock,
  ) {}

  async start(): Promise<void> {
    this.stop = await this.db.listen(this.channel, (payload) => this.receive(payload));
  }

  async close(): Promise<void> {
    for (const p of this.partial.values()) p.timer.cancel();
    this.partial.clear();
    const stop = this.stop;
    this.stop = undefined;
    // The database may already be closing with the app; there is nothing left to unlisten then
    await stop?.().catch(() => {});
  }

  async publish(message: string): Promise<void> {
    if (Buffer.byteLength(message, 'utf8') + 2 <= NOTIFY_PAYLOAD_LIMIT_BYTES) {
      await this.db.query('SELECT pg_notify($1, $2)', [this.channel, `f|${message}`]);
      return;
    }
    const encoded = Buffer.from(message, 'utf8').toString('base64');
    const total = Math.ceil(encoded.length / CHUNK_CHARS);
    const id = randomUUID();
    await this.db.transaction(async (tx) => {
      for (let seq = 0; seq < total; seq++) {
        const part = encoded.slice(seq * CHUNK_CHARS, (seq + 1) * CHUNK_CHARS);
        await tx.query('SELECT pg_notify($1, $2)', [this.channel, `c|${id}|${seq}|${total}|${part}`]);
      }
    });
  }

  private receive(payload: string): void {
    if (payload.startsWith('f|')) {
      this.onMessage(payload.slice(2));
      return;
    }
    if (!payload.startsWith('c|')) return; // not ours: ignore rather than crash the listener
    const [, id, seqText, totalText, part] = payload.split('|');
    const seq = Number(seqText);
    const total = Number(totalText);
    if (!id || part === undefined || !Number.isInteger(seq) || !Number.isInteger(total) || seq >= total)
      return;
    let entry = this.partial.get(id);
    if (!entry) {
      const timer = this.clock.after(CHUNK_ASSEMBLY_TIMEOUT_MS, () => this.partial.delete(id), {
        unref: true,
      });
      entry = { parts: new Array<string>(total), received: 0, timer };
      this.partial.set(id, entry);
    }
    if (entry.parts[seq] === undefined) {
      entry.parts[seq] = part;
      entry.received += 1;
    }
    if (entry.received === total) {
      entry.timer.cancel();
      this.partial.delete(id);
      this.onMessage(Buffer.from(entry.parts.join(''), 'base64').toString('utf8'));
    }
  }
}
