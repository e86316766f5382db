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
      new AccountService(app.db, accountRepository, app.authService, app.accountAudit, app.clock, app.events),
    );
  },
  { name: 'account', dependencies: ['auth'] },
);
