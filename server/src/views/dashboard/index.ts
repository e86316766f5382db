import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { recorderRepository } from '../../core/recorder/recorder-repository';
import { botRepository } from '../../trading/bots/bot-repository';
import { DashboardService } from './dashboard-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The cockpit's figures of the signed-in user's account */
    dashboardService: DashboardService;
  }
}

/** Wires the dashboard service: keys from `credentials`, the adapter, the recorder's tables for history */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'dashboardService',
      new DashboardService(
        app.credentialsService,
        app.exchangeAdapter,
        app.clock,
        { db: app.db, repo: recorderRepository },
        app.accountReads,
        (userId) => botRepository.countActive(app.db, userId),
        (environment) => app.exchangeRouter.marketFor(environment),
      ),
    );
  },
  {
    name: 'dashboard',
    dependencies: ['database', 'exchange', 'exchange-services', 'credentials'],
  },
);
