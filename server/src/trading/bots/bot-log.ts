import { randomUUID } from 'node:crypto';
import type { BotEvent, BotEventKind } from '@kestrel/contracts/bots';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent, PushTarget } from '../../core/socket/socket-bus';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { type BotEventRow, type BotRow, botRepository } from './bot-repository';

export interface BotLogDeps {
  db: Database;
  publish(target: PushTarget, event: LiveEvent): Promise<void>;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** The bot a log line belongs to (a notice names it when the row is at hand) */
export type LoggedBot = Pick<BotRow, 'id' | 'user_id'> & Partial<Pick<BotRow, 'name' | 'symbol' | 'mode'>>;

/**
 * Writes one line of a bot's log and pushes it to the owner's sockets (`notifications/bot`). A lost push only
 * delays the page (it reads the log); a failed write is thrown: every automated action must leave a record
 */
export class BotLog {
  constructor(
    private readonly deps: BotLogDeps,
    /** Tells the owner (in-app list, webhooks) about the lines that matter: fills, starts, stops. Never throws */
    private readonly notify?: (bot: LoggedBot, event: BotEvent) => Promise<void>,
  ) {}

  async record(
    bot: LoggedBot,
    kind: BotEventKind,
    message: string,
    data: Record<string, unknown> = {},
  ): Promise<BotEvent> {
    const row: BotEventRow = {
      id: randomUUID(),
      bot_id: bot.id,
      user_id: bot.user_id,
      kind,
      message,
      data,
      created_at: this.deps.clock.now(),
    };
    await botRepository.insertEvent(this.deps.db, row);
    const event = toEvent(row);
    try {
      await this.deps.publish(bot.user_id, {
        kind: 'bot',
        data: { botId: bot.id, type: kind, time: event.time, event },
      });
    } catch (err) {
      this.deps.log.warn({ err, botId: bot.id }, 'bot push failed');
    }
    await this.notify?.(bot, event);
    return event;
  }
}

/** A stored log line as the contracts name it */
export function toEvent(row: BotEventRow): BotEvent {
  return {
    id: row.id,
    botId: row.bot_id,
    kind: row.kind,
    message: row.message,
    data: row.data,
    time: new Date(row.created_at).getTime(),
  };
}
