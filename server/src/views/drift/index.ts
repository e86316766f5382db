import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { exchangeNameOf } from '../../core/exchange/exchange-config';
import type { PluginOptions } from '../../core/plugin-options';
import { DriftService } from './drift-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** A bot's fills against a backtest of the same strategy over the same period */
    driftService: DriftService;
  }
}

/**
 * The drift report: reads bots through the bots plugin's service and runs the backtest with the backtest plugin's
 * checks and market inputs; owns no table
 */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    app.decorate(
      'driftService',
      new DriftService({
        bots: app.botService,
        backtests: app.backtestService,
        exchangeEnvOf: (environment) => exchangeNameOf(config.exchangeTargets, environment),
        clock: app.clock,
      }),
    );
  },
  { name: 'drift', dependencies: ['bots', 'backtest'] },
);
