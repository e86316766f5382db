import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { adapterProbe } from '../exchange/adapter-probe';
import type { PluginOptions } from '../plugin-options';
import { credentialsRepository } from './credentials-repository';
import { CredentialsService } from './credentials-service';

declare module 'fastify' {
  interface FastifyInstance {
    credentialsService: CredentialsService;
  }
}

/** Wires the credential vault; keys are tested through the exchange adapter (tests may pass their own probe) */
export default fp(
  async (app: FastifyInstance, { config, deps }: PluginOptions) => {
    const service = new CredentialsService(
      app.db,
      credentialsRepository,
      app.keyring,
      deps.exchange ?? adapterProbe(app.exchangeAdapter),
      app.clock,
      app.environmentService,
      app.events,
      // A stored key found refused by any check is said in the owner's account audit
      (userId, message) => app.accountAudit.record(userId, 'keys_refused', message, undefined),
    );
    app.decorate('credentialsService', service);

    // The scheduled re-check (KESTREL_KEY_RECHECK_MS): a key revoked or given withdrawals on Binance after it was
    // saved is marked failed, and its owner reads why in the account's audit
    if (config.keyRecheckMs > 0) {
      let running: Promise<unknown> | undefined;
      const timer = app.clock.every(
        config.keyRecheckMs,
        () => {
          if (running) return;
          running = service
            .recheckAll()
            .catch((err: unknown) =>
              app.log.warn(
                { err: err instanceof Error ? err.message : String(err) },
                'exchange key re-check failed',
              ),
            )
            .finally(() => {
              running = undefined;
            });
        },
        { unref: true },
      );
      app.addHook('onClose', async () => {
        timer.cancel();
        await running;
      });
    }
  },
  {
    name: 'credentials',
    dependencies: ['database', 'secrets', 'exchange', 'auth', 'notifications', 'environment'],
  },
);
