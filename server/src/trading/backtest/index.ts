import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { exchangeNameOf } from '../../core/exchange/exchange-config';
import type { PluginOptions } from '../../core/plugin-options';
import { channelFor } from '../../core/socket/socket-bus';
import { JobQuota } from '../jobs/job-quota';
import { BacktestService } from './backtest-service';
import { BacktestWorkers } from './backtest-workers';
import { OptimisationService } from './optimisation-service';

declare module 'fastify' {
  interface FastifyInstance {
    backtestService: BacktestService;
    optimisationService: OptimisationService;
  }
}

/**
 * Backtest jobs: the service, its worker threads (`config.backtestConcurrency`, default 1) and the database queue
 * it shares with the other instances on the database (started once the app is ready). Bars come from the
 * configured exchange's public klines, cached in the database.
 */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    const workers = new BacktestWorkers(config.backtestConcurrency);
    const quota = new JobQuota(app.db, app.clock, {
      perHour: config.jobsPerHour,
      waiting: config.jobsQueued,
    });
    const service = new BacktestService({
      db: app.db,
      exchange: app.exchangeAdapter,
      market: (environment) => app.exchangeRouter.marketFor(environment),
      // No stored keys: the run uses the default brackets
      keysFor: (account) => app.credentialsService.storedKeys(account),
      exchangeEnvOf: (environment) => exchangeNameOf(config.exchangeTargets, environment),
      publish: (target, event) => app.socketBus.publish(target, event),
      workers,
      clock: app.clock,
      log: app.log,
      concurrency: config.backtestConcurrency,
      channel: await channelFor(app.db, 'kestrel_backtest'),
      quota,
    });
    app.decorate('backtestService', service);
    // Optimisation jobs: the same request checks and market inputs, their own queue table and channel, one job at
    // a time per instance on `backtestConcurrency` sweep threads
    const optimisations = new OptimisationService({
      db: app.db,
      backtests: service,
      publish: (target, event) => app.socketBus.publish(target, event),
      clock: app.clock,
      log: app.log,
      workers: config.backtestConcurrency,
      channel: await channelFor(app.db, 'kestrel_optimisation'),
      quota,
    });
    app.decorate('optimisationService', optimisations);
    app.addHook('onReady', async () => {
      await service.start();
      await optimisations.start();
    });
    // Before the socket bus and the database close: onClose runs in reverse registration order, and both are
    // dependencies (registered before this plugin whatever the order of the list)
    app.addHook('onClose', async () => {
      await optimisations.close();
      await service.close();
      await workers.close();
    });
  },
  { name: 'backtest', dependencies: ['database', 'exchange', 'socket-bus', 'credentials'] },
);
