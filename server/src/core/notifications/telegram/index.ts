import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { authRepository } from '../../auth/auth-repository';
import type { PluginOptions } from '../../plugin-options';
import { TelegramClient } from './telegram-client';
import { TelegramCommands } from './telegram-commands';
import { TelegramOutbox } from './telegram-outbox';
import { TelegramPoller } from './telegram-poller';
import { telegramRepository } from './telegram-repository';
import { type TelegramLog, TelegramService } from './telegram-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Telegram channel: link codes, the linked chat and its events, notices to it, the chat's commands */
    telegram: TelegramService;
    /** The commands a linked chat may send; the edge registers them (`routes/telegram/`) */
    telegramCommands: TelegramCommands;
  }
}

/**
 * Wires the Telegram channel. Off (no client, no poll) unless the operator set KESTREL_TELEGRAM_BOT_TOKEN. The poll
 * starts once the app is ready (every command is registered by then) and stops before anything closes, so no
 * command runs on a service that is shutting down
 */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    const token = config.telegramBotToken;
    const client = token
      ? new TelegramClient({ apiUrl: config.telegramApiUrl, token, clock: app.clock })
      : undefined;
    const log: TelegramLog = {
      info: (details, message) => app.log.info(details, message),
      warn: (details, message) => app.log.warn(details, message),
      error: (details, message) => app.log.error(details, message),
    };
    const outbox = client ? new TelegramOutbox(client, app.clock, log) : undefined;
    const commands = new TelegramCommands();
    const service = new TelegramService({
      db: app.db,
      repo: telegramRepository,
      clock: app.clock,
      client,
      outbox,
      commands,
      nameOf: async (userId) => {
        const user = await authRepository.findUserById(app.db, userId);
        if (!user) return undefined;
        return user.name ? `${user.name} (${user.email})` : user.email;
      },
      log,
    });
    app.decorate('telegram', service);
    app.decorate('telegramCommands', commands);
    if (!client || !outbox) return;
    const poller = new TelegramPoller({
      db: app.db,
      repo: telegramRepository,
      client,
      clock: app.clock,
      accept: (update) => service.accept(update),
      log,
    });
    app.addHook('onReady', async () => {
      poller.start();
      // The bot's name for the account page and the link codes' deep links
      void service.botUsername();
    });
    app.addHook('preClose', async () => {
      await poller.stop();
      await service.idle();
    });
    app.addHook('onClose', () => outbox.close());
  },
  { name: 'telegram', dependencies: ['database'] },
);
