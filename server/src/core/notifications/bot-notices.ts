import type { NotificationEvent } from '@kestrel/contracts/account';
import type { BotEvent } from '@kestrel/contracts/bots';
import type { NotificationContent } from './notification-service';

/** The bot a log line belongs to, as far as a notice names it */
export interface NoticeBot {
  name?: string;
  symbol?: string;
  mode?: string;
}

/**
 * Which lines of a bot's log the owner is told about, and in which words. Every automated action of a bot is a
 * line of its log (`BotLog.record`), so this map is the one place bot notices are decided: a fill, a start, a stop,
 * a risk stop. An `error` line is a stop only when it closes a session (the runner's end record carries the
 * session's PnL); other error lines (a cancel that failed mid-run) stay in the bot's log only
 */
export function botNotice(
  bot: NoticeBot,
  event: Pick<BotEvent, 'botId' | 'kind' | 'message' | 'data'>,
): { event: NotificationEvent; content: NotificationContent } | undefined {
  const who = bot.name ? `Bot “${bot.name}”` : 'A bot';
  const where = bot.symbol ? ` (${bot.mode ? `${bot.mode} ` : ''}${bot.symbol})` : '';
  const data = { botId: event.botId, ...event.data };
  switch (event.kind) {
    case 'started':
      return {
        event: 'bot_started',
        content: { title: `${who} started`, message: event.message, data },
      };
    case 'stopped':
      return {
        event: 'bot_stopped',
        content: { title: `${who} stopped`, message: event.message, data },
      };
    case 'risk_stop':
      return {
        event: 'bot_stopped_by_risk',
        content: { title: `${who} stopped by a risk limit`, message: event.message, data },
      };
    case 'error':
      if (!('sessionPnl' in event.data)) return undefined;
      return {
        event: 'bot_stopped',
        content: { title: `${who} stopped after a failure`, message: event.message, data },
      };
    case 'order_filled':
      return {
        event: 'order_filled',
        content: { title: `${who}${where}: order filled`, message: event.message, data },
      };
    default:
      return undefined;
  }
}
