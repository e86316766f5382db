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
 * Wires the notification service. Registered before the plugins that emit events (risk); the socket bus comes
 * later, so pushes reach it through `app.socketBus` read when a notice is sent
 */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    const service = new NotificationService(
      app.db,
      notificationsRepository,
      app.keyring,
      app.clock,
      async (userId, notice) => {
        await app.socketBus?.publish(userId, { kind: 'notification', data: notice });
      },
      {
        allowPrivate: config.webhooksAllowPrivate,
        onError: (err, what) => app.log.error({ err }, `${what} failed`),
      },
    );
    app.decorate('notifications', service);
    app.decorate(
      'keyRefusals',
      new KeyRefusalNotices(app.clock, (userId, content) =>
        service.notify(userId, 'exchange_key_refused', content),
      ),
    );
    // A new device signing in is told about (the audit knows which devices were seen before)
    app.accountAudit.onNewDevice((userId, client) =>
      service.notify(userId, 'new_device_signin', {
        title: 'Sign-in from a new device',
        message: `Signed in from ${client.userAgent ?? 'an unknown browser'} (IP ${client.ip})`,
        data: { ip: client.ip, userAgent: client.userAgent ?? null },
      }),
    );
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
  { name: 'notifications', dependencies: ['database', 'secrets', 'auth'] },
);
