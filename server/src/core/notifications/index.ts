import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PluginOptions } from '../plugin-options';
import { KeyRefusalNotices } from './key-refusal-notices';
import { NotificationService } from './notification-service';
import { notificationsRepository } from './notifications-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** `notify(userId, event, content)`: the in-app list, socket push and webhooks of every event */
    notifications: NotificationService;
    /** Binance refusing a user's stored key: the vault says whose key it opened, the adapter which key was refused */
    keyRefusals: KeyRefusalNotices;
  }
}

/** How often due webhook deliveries (retries, deliveries a stopped server left) are looked for */
const DELIVERY_POLL_MS = 5_000;

/**
 * Wires the notification service, the Telegram channel (`telegram/`, its own plugin) given as a channel port. A new
 * notice reaches the user's sockets as 'notification.created' (the socket plugin, which sits above this one,
 * subscribes)
 */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    const service = new NotificationService(
      app.db,
      notificationsRepository,
      app.keyring,
      app.clock,
      // The socket plugin pushes it to the user's sockets
      (userId, notice) => app.events.publish('notification.created', { userId, notice }),
      {
        targets: config.webhooksAllowPrivate
          ? { allowPrivate: true }
          : {
              allowPrivate: false,
              ...(config.webhooksAllowHosts ? { allowance: config.webhooksAllowHosts } : {}),
            },
        onError: (err, what) => app.log.error({ err }, `${what} failed`),
        // The user's Telegram chat, for the events they chose there
        channels: [app.telegram],
      },
    );
    app.decorate('notifications', service);
    const keyRefusals = new KeyRefusalNotices(app.clock, (userId, content) =>
      service.notify(userId, 'exchange_key_refused', content),
    );
    app.decorate('keyRefusals', keyRefusals);
    // A new device signing in is told about (the audit knows which devices were seen before)
    app.events.on('account.new-device', ({ userId, client }) =>
      service.notify(userId, 'new_device_signin', {
        title: 'Sign-in from a new device',
        message: `Signed in from ${client.userAgent ?? 'an unknown browser'} (IP ${client.ip})`,
        data: { ip: client.ip, userAgent: client.userAgent ?? null },
      }),
    );
    // Strangers guessing the password: the owner's own browsers still sign in, new ones are held back a while
    app.events.on('auth.signin-failures', ({ userId, failures, windowMs }) =>
      service.notify(userId, 'signin_failures', {
        title: 'Failed sign-ins on your account',
        message:
          `${failures} wrong passwords for your account within ${windowMs / 60_000} minutes, from browsers it has ` +
          'never signed in with: those are held back for a while, yours that signed in before are not. If it was ' +
          'not you, change your password in Account.',
        data: { failures },
      }),
    );
    // Whose key the vault opened, so a key Binance refuses is traced to its owner
    app.events.on('credentials.opened', ({ userId, apiKey }) => keyRefusals.opened(userId, apiKey));
    const timer = app.clock.every(
      DELIVERY_POLL_MS,
      () => void service.tick().catch((err: unknown) => app.log.error({ err }, 'webhook delivery failed')),
      { unref: true },
    );
    app.addHook('onClose', async () => {
      timer.cancel();
      await service.idle();
    });
  },
  { name: 'notifications', dependencies: ['database', 'secrets', 'auth', 'telegram'] },
);
