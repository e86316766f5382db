import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import type { BotSession } from './bot-session';
import { botStatusRepository } from './bot-status-repository';

/** A running bot's figures are written at most this often (a burst of fills costs one write, the last one kept) */
export const STATUS_WRITE_MS = 1_000;

export interface BotStatusWriterDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Least time between two writes of one bot's figures (`bot_status`); default STATUS_WRITE_MS */
  statusWriteMs?: number;
}

/**
 * Writes the figures of the sessions running here (`bot_status`), so status and summary on other instances show
 * them: after each change, at most once per STATUS_WRITE_MS per bot, the trailing write kept
 */
export class BotStatusWriter {
  /** Figure writes: when each bot's last went out, and the trailing one waiting */
  private readonly writes = new Map<string, { lastAt: number; timer?: Timer }>();

  constructor(
    private readonly deps: BotStatusWriterDeps,
    /** The session running the bot here, if it still runs */
    private readonly sessionOf: (id: string) => BotSession | undefined,
    /** Hands a write to the work the runner waits for before it closes */
    private readonly track: (work: Promise<unknown>) => void,
  ) {}

  /** The bot's figures changed: written now, or once the throttle allows (the latest figures then) */
  changed(id: string): void {
    const every = this.deps.statusWriteMs ?? STATUS_WRITE_MS;
    const w = this.writes.get(id) ?? { lastAt: Number.NEGATIVE_INFINITY };
    this.writes.set(id, w);
    if (w.timer) return;
    const wait = Math.max(0, w.lastAt + every - this.deps.clock.now().getTime());
    const write = () => {
      w.timer = undefined;
      w.lastAt = this.deps.clock.now().getTime();
      const session = this.sessionOf(id);
      if (session) this.track(this.write(id, session));
    };
    if (wait === 0) write();
    else w.timer = this.deps.clock.after(wait, write, { unref: true });
  }

  async write(id: string, session: BotSession): Promise<void> {
    const figures = session.figures();
    const startedAt = session.row.started_at;
    if (!figures || !startedAt) return;
    try {
      await botStatusRepository.saveStatus(
        this.deps.db,
        id,
        startedAt,
        figures as unknown as Record<string, unknown>,
        this.deps.clock.now(),
      );
    } catch (err) {
      // The next change writes them again; until then other instances show slightly older figures
      this.deps.logger.warn({ err, botId: id }, 'bot figures not written');
    }
  }

  /** The bot's session ended here: its trailing write is dropped */
  forget(id: string): void {
    this.writes.get(id)?.timer?.cancel();
    this.writes.delete(id);
  }

  forgetAll(): void {
    for (const w of this.writes.values()) w.timer?.cancel();
    this.writes.clear();
  }
}
