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
 * checks and market inputs; owns no table. Provides the agents' paper-drift evidence
 */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    const service = new DriftService({
      bots: app.botService,
      backtests: app.backtestService,
      exchangeEnvOf: (environment) => exchangeNameOf(config.exchangeTargets, environment),
      clock: app.clock,
    });
    app.decorate('driftService', service);
    // An agent's evidence shows its paper returns against the backtest's, in % of its budget
    app.agentPaperDrift.provide(async (userId, id) => {
      const r = await service.report(userId, id);
      const budget = (await app.botService.get(userId, id)).budget;
      return {
        from: r.period.from,
        to: r.period.to,
        paperReturnPct: (r.totals.bot.net / budget) * 100,
        backtestReturnPct: (r.totals.backtest.net / budget) * 100,
        trades: r.totals.bot.trades,
      };
    });
  },
  { name: 'drift', dependencies: ['bots', 'backtest', 'agents'] },
);
