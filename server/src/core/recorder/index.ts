import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PluginOptions } from '../plugin-options';
import { AccountRecorder } from './account-recorder';
import { recorderRepository } from './recorder-repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** Equity snapshots and income history of every connected account, kept in the database */
    accountRecorder: AccountRecorder;
  }
}

/**
 * The account recorder. Its timer runs unless `KESTREL_ACCOUNT_RECORDER=off` (the test apps' default, so other
 * tests see no extra exchange calls; a test calls `tick()` itself); it stops before the database closes
 */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    const recorder = new AccountRecorder({
      db: app.db,
      repo: recorderRepository,
      credentials: app.credentialsService,
      exchange: app.exchangeAdapter,
      clock: app.clock,
      log: app.log,
    });
    app.decorate('accountRecorder', recorder);
    if (config.accountRecorder) app.addHook('onReady', async () => recorder.start());
    app.addHook('onClose', async () => recorder.close());
  },
  { name: 'account-recorder', dependencies: ['database', 'exchange', 'credentials'] },
);
