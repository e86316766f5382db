import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { recorderRepository } from '../../core/recorder/recorder-repository';
import { analyticsRepository } from './analytics-repository';
import { AnalyticsService } from './analytics-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The account's results over a range, from the recorder's tables */
    analyticsService: AnalyticsService;
  }
}

/** Wires the analytics service over the account recorder's tables */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'analyticsService',
      new AnalyticsService({
        db: app.db,
        repo: analyticsRepository,
        recorderRepo: recorderRepository,
        recorder: app.accountRecorder,
        clock: app.clock,
        log: app.log,
      }),
    );
  },
  { name: 'analytics', dependencies: ['database', 'account-recorder'] },
);
