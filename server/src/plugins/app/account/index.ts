import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
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
        // BOTS: the bots runtime stops every bot of the user here (and cancels their orders) once it lands; until
        // then the bot rows go with the user by ON DELETE CASCADE and nothing is running for them
        stopAllBots: async () => {},
        forget: async (userId) => {
          await app.liveStreams?.refreshUser(userId);
        },
      }),
    );
  },
  { name: 'account', dependencies: ['auth'] },
);
