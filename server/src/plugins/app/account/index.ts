import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { STOPPED_FOR_ACCOUNT_DELETION } from '../bots/bot-service';
import { accountRepository } from './account-repository';
import { AccountService } from './account-service';

declare module 'fastify' {
  interface FastifyInstance {
    accountService: AccountService;
  }
}

/** Wires the account service: profile, password, sessions, step-up, deletion, settings */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'accountService',
      new AccountService(app.db, accountRepository, app.authService, app.accountAudit, app.clock, {
        // Read when an account is deleted (the bots plugin registers after this one): every bot stops and cancels
        // its orders while the keys are still there to cancel with
        stopAllBots: async (userId) => {
          await app.botService.stopAll(userId, STOPPED_FOR_ACCOUNT_DELETION);
        },
        forget: async (userId) => {
          await app.liveStreams?.refreshUser(userId);
        },
      }),
    );
  },
  { name: 'account', dependencies: ['auth'] },
);
