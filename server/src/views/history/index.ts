import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { historyRepository } from '../../core/recorder/history-repository';
import { recorderRepository } from '../../core/recorder/recorder-repository';
import { orderIntentRepository } from '../../trading/orders/order-intent-repository';
import { HistoryService } from './history-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in user's order, fill and income history, paged or as CSV */
    historyService: HistoryService;
  }
}

/** Wires the history service on the recorder's tables; reads ask the recorder to import what is new first */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'historyService',
      new HistoryService(
        app.db,
        { history: historyRepository, recorder: recorderRepository, intents: orderIntentRepository },
        app.accountRecorder,
        app.clock,
      ),
    );
  },
  { name: 'history', dependencies: ['database', 'account-recorder'] },
);
