import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AccountAudit } from '../account/account-audit';
import { authRepository } from './auth-repository';
import { type AuthContext, AuthService } from './auth-service';
import { TokenService } from './tokens';

declare module 'fastify' {
  interface FastifyInstance {
    authService: AuthService;
    /** The account audit every part of the server records account changes through */
    accountAudit: AccountAudit;
    /** onRequest hook: rejects the request with 401 unless it carries a live session's access token */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** Wires the auth service and the `authenticate` hook used by protected routes */
export default fp(
  async (app: FastifyInstance) => {
    const audit = new AccountAudit(app.db, app.clock);
    app.decorate('accountAudit', audit);
    const service = new AuthService(
      app.db,
      authRepository,
      new TokenService(app.tokenKeyring, app.clock),
      app.clock,
      audit,
      { signupsPerIpHour: app.config.signupsPerIpHour },
    );
    app.decorate('authService', service);
    app.decorateRequest('auth', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      request.auth = await service.authenticate(request.headers.authorization);
    });
  },
  { name: 'auth', dependencies: ['database', 'secrets'] },
);

/** The signed-in caller of a route behind `authenticate`; a missing context is a wiring bug, not a 401 */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('Route is missing the authenticate hook');
  return request.auth;
}
