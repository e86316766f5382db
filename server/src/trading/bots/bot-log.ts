import { randomUUID } from 'node:crypto';
import type { BotEvent, BotEventKind } from '@kestrel/contracts/bots';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent, PushTarget } from '../../core/socket/socket-bus';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { type BotEventRow, botEventRepository } from './bot-event-repository';
import type { BotRow } from './bot-repository';

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
    await botEventRepository.insertEvent(this.deps.db, row);
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

/** A figure of a log line: a finite number, or a decimal string of one */
const figure = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** The figures of an `order_filled` line: paper and live accounts log the same ones (a live fill its own time too) */
export interface LoggedFill {
  side: 'buy' | 'sell';
  quantity: number;
  price: number;
  /** Paid, USDT; 0 when the line has none */
  fee: number;
  realizedPnl: number;
  /** Signed position after the fill; absent from lines that did not log it */
  positionAfter: number | undefined;
  /** When it filled (live), and the open time of the bar it was handled on */
  fillTime: number | undefined;
  barTime: number | undefined;
}

/** The fill an `order_filled` line's data records, undefined when its side, quantity or price is not readable */
export function loggedFill(data: Record<string, unknown>): LoggedFill | undefined {
  const side = typeof data.side === 'string' ? data.side.toLowerCase() : undefined;
  const quantity = figure(data.quantity);
  const price = figure(data.price);
  if ((side !== 'buy' && side !== 'sell') || quantity === undefined || price === undefined) return undefined;
  return {
    side,
    quantity,
    price,
    fee: figure(data.fee) ?? 0,
    realizedPnl: figure(data.realizedPnl) ?? 0,
    positionAfter: figure(data.positionAfter),
    fillTime: figure(data.fillTime),
    barTime: figure(data.barTime),
  };
}
