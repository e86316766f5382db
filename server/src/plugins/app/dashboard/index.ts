import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DashboardService } from './dashboard-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The cockpit's figures of the signed-in user's account */
    dashboardService: DashboardService;
  }
}

/** Wires the dashboard service; after `credentials` (keys) and `exchange` (the adapter) */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'dashboardService',
      new DashboardService(app.credentialsService, app.exchangeAdapter, app.clock),
    );
  },
  { name: 'dashboard', dependencies: ['exchange', 'credentials'] },
);
