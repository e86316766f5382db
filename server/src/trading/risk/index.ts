import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PreTradePipeline } from './pre-trade/pipeline';
import { RiskGuard } from './risk-guard';
import { riskRepository } from './risk-repository';
import { RiskService } from './risk-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The account limits every order passes before it is sent (inside the order manager) */
    riskGuard: RiskGuard;
    /** The pre-trade pipeline the order manager runs on every order (the account limits among its checks) */
    preTrade: PreTradePipeline;
    /** Limits, risk figures, the risk audit and the kill switch of the signed-in user */
    riskService: RiskService;
  }
}

/**
 * The guard, apart from the service: `FuturesService` needs the guard (so this comes before `exchange-services`),
 * and the kill switch needs `FuturesService` (so the service comes after)
 */
export const riskGuardPlugin = fp(
  async (app: FastifyInstance) => {
    const guard = new RiskGuard(
      app.exchangeAdapter,
      app.clock,
      { db: app.db, repo: riskRepository },
      (environment) => app.exchangeRouter.marketFor(environment),
    );
    app.decorate('riskGuard', guard);
    app.decorate('preTrade', new PreTradePipeline([guard.accountLimits]));
  },
  { name: 'risk-guard', dependencies: ['database', 'exchange'] },
);

/** Wires the risk service: keys from `credentials`, orders through `futuresService`, the guard's limits */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'riskService',
      new RiskService(
        app.credentialsService,
        app.exchangeAdapter,
        app.futuresService,
        app.riskGuard,
        app.clock,
        {
          db: app.db,
          repo: riskRepository,
        },
        app.accountReads,
        app.notifications,
        (environment) => app.exchangeRouter.marketFor(environment),
        app.events,
      ),
    );
  },
  {
    name: 'risk',
    dependencies: ['risk-guard', 'exchange-services', 'credentials', 'notifications', 'futures'],
  },
);
