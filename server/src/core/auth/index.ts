import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Timer } from '../../lib/clock';
import { AccountAudit } from '../account/account-audit';
import { authRepository } from './auth-repository';
import { type AuthContext, AuthService, type DpopInput, SWEEP } from './auth-service';
import { DpopVerifier } from './dpop';
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
    const audit = new AccountAudit(app.db, app.clock, app.events);
    app.decorate('accountAudit', audit);
    const service = new AuthService(
      app.db,
      authRepository,
      new TokenService(app.tokenKeyring, app.clock),
      app.clock,
      audit,
      new DpopVerifier(app.clock),
      { signupsPerIpHour: app.config.signupsPerIpHour },
      app.events,
    );
    app.decorate('authService', service);
    app.decorateRequest('auth', null);
    // Ended sessions and spent refresh tokens would otherwise pile up forever (one token per refresh)
    let sweepTimer: Timer | undefined;
    const sweep = () =>
      void service.sweep().then(
        (deleted) => {
          if (deleted.sessions + deleted.refreshTokens > 0) app.log.info({ deleted }, 'auth: sweep');
        },
        (err: unknown) => app.log.warn({ err }, 'auth: sweep failed; next pass retries'),
      );
    app.addHook('onReady', async () => {
      sweepTimer = app.clock.every(SWEEP.intervalMs, sweep, { unref: true });
    });
    app.addHook('onClose', async () => sweepTimer?.cancel());
    app.decorate('authenticate', async (request: FastifyRequest) => {
      request.auth = await service.authenticate(request.headers.authorization);
    });
  },
  { name: 'auth', dependencies: ['database', 'secrets'] },
);

/** The DPoP proof header of an auth call, with the method and path it must name */
export function dpopInput(request: FastifyRequest): DpopInput {
  const header = request.headers.dpop;
  return {
    proof: typeof header === 'string' ? header : undefined,
    method: request.method,
    path: request.url.split('?')[0] ?? request.url,
  };
}

/** The signed-in caller of a route behind `authenticate`; a missing context is a wiring bug, not a 401 */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('Route is missing the authenticate hook');
  return request.auth;
}
