import type { DashboardOverview } from '@kestrel/contracts';
import type { FastifyInstance } from 'fastify';
import { startOfUtcDay } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import {
  botsAnswer,
  killAnswer,
  matchBots,
  profitAnswer,
  statusAnswer,
  stopChoices,
} from './telegram-answers';

/** How long `/kill` waits for `/kill confirm` */
export const KILL_CONFIRM_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The commands of a linked Telegram chat. The chat acts as its user through the services the HTTP routes call (the
 * dashboard's overview for /status, the analytics for /profit, the bot service, the risk service's kill switch),
 * so a command has the same effect and leaves the same records as the page's button. Each command acts on the
 * user's current trading environment, as a page does. The channel (core) records every command with its answer
 */
export default async function telegramCommands(app: FastifyInstance): Promise<void> {
  const commands = app.telegramCommands;
  const accountOf = (userId: string) => app.environmentService.accountOf(userId);
  /** Until when each user's `/kill` waits for its confirmation (the clock's ms) */
  const killAsked = new Map<string, number>();

  /** The overview, or null when the user stored no key for the environment */
  const overviewOf = async (userId: string): Promise<DashboardOverview | null> => {
    try {
      return await app.dashboardService.overview(await accountOf(userId));
    } catch (err) {
      if (err instanceof HttpError && err.code === 'CREDENTIALS_REQUIRED') return null;
      throw err;
    }
  };

  commands.register({
    name: 'status',
    summary: 'equity, unrealized PnL, open positions and running bots',
    async run({ userId }) {
      const [account, overview, bots] = await Promise.all([
        accountOf(userId),
        overviewOf(userId),
        app.botService.summary(userId),
      ]);
      return statusAnswer(account.environment, overview, bots);
    },
  });

  commands.register({
    name: 'profit',
    summary: 'realized PnL today and over 7 and 30 days',
    async run({ userId }) {
      const account = await accountOf(userId);
      const now = app.clock.now().getTime();
      const analytics = await app.analyticsService.analytics(account, {
        from: startOfUtcDay(now) - 29 * DAY_MS,
        to: now,
      });
      return profitAnswer(account.environment, now, analytics.daily);
    },
  });

  commands.register({
    name: 'bots',
    summary: 'each bot: state, symbol and PnL',
    async run({ userId }) {
      return botsAnswer(await app.botService.summary(userId));
    },
  });

  commands.register({
    name: 'stop',
    usage: '/stop <bot name or id>',
    summary: 'stop one bot (its orders are canceled)',
    async run({ userId, args }) {
      const { bots } = await app.botService.summary(userId);
      const found = matchBots(bots, args);
      const [bot] = found;
      if (found.length !== 1 || !bot) return stopChoices(bots, args, found);
      try {
        await app.botService.stop(userId, bot.id);
      } catch (err) {
        if (err instanceof HttpError && err.statusCode < 500) return `“${bot.name}”: ${err.message}`;
        throw err;
      }
      return `Stopped “${bot.name}” (${bot.symbol} ${bot.mode}); its orders were canceled.`;
    },
  });

  commands.register({
    name: 'kill',
    usage: '/kill',
    summary: 'the kill switch: stop every bot, cancel every order, close every position (asks to confirm)',
    async run({ userId, args }) {
      const now = app.clock.now().getTime();
      const account = await accountOf(userId);
      if (args.toLowerCase() === 'confirm') {
        const until = killAsked.get(userId);
        killAsked.delete(userId);
        if (until === undefined || now > until)
          return `No kill switch is waiting to be confirmed (a /kill lasts ${KILL_CONFIRM_MS / 1000} seconds): send /kill first.`;
        return killAnswer(await app.riskService.killSwitch(account));
      }
      killAsked.set(userId, now + KILL_CONFIRM_MS);
      return (
        `The kill switch stops all your bots, cancels every open order and closes every position at market on ` +
        `${account.environment}. Send /kill confirm within ${KILL_CONFIRM_MS / 1000} seconds to run it.`
      );
    },
  });
}
