import {
  AuthResponseSchema,
  ErrorResponseSchema,
  MeResponseSchema,
  MessageResponseSchema,
  RefreshRequestSchema,
  SessionListResponseSchema,
  SessionParamsSchema,
  SigninRequestSchema,
  SignupRequestSchema,
} from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dpopInput, requireAuth } from '../../../../core/auth';
import { clientInfo } from '../../../route-schemas';

const tags = ['auth'];
const security = [{ bearer: [] }];

/** The spec's auth calls (§7): sign-up, sign-in, refresh, logout, current user, sessions */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/signup',
    {
      schema: {
        tags,
        summary: 'Create an account and sign in',
        body: SignupRequestSchema,
        response: { 201: AuthResponseSchema, 400: ErrorResponseSchema, 409: ErrorResponseSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await app.authService.signup(request.body, clientInfo(request), dpopInput(request))),
  );

  app.post(
    '/signin',
    {
      schema: {
        tags,
        summary: 'Sign in with email and password',
        description:
          'Unknown email and wrong password get the same answer. Failed attempts are throttled per email+IP and per IP (429 with Retry-After). An optional `DPoP` header (a proof JWT by the browser key) binds the refresh token to that key; without it the refresh token cannot be refreshed.',
        body: SigninRequestSchema,
        response: {
          200: AuthResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          429: ErrorResponseSchema,
        },
      },
    },
    async (request) => app.authService.signin(request.body, clientInfo(request), dpopInput(request)),
  );

  app.post(
    '/refresh',
    {
      schema: {
        tags,
        summary: 'Rotate a refresh token',
        description:
          'Needs a `DPoP` header: a proof JWT (RFC 9449: typ dpop+jwt, ES256, the public jwk in its header; htm, htu, iat, jti) signed by the browser key the sign-in proved. Each refresh token works once; presenting a used one again within 10 s returns the same replacement, later it ends its whole session.',
        body: RefreshRequestSchema,
        response: { 200: AuthResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => app.authService.refresh(request.body.refresh_token, dpopInput(request)),
  );

  app.post(
    '/logout',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'End the current session (its access token stops working at once)',
        response: { 200: MessageResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      await app.authService.logout(requireAuth(request));
      return { success: true as const, message: 'Logged out' };
    },
  );

  app.get(
    '/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The signed-in user',
        response: { 200: MeResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({ success: true as const, user: await app.authService.me(requireAuth(request)) }),
  );

  app.get(
    '/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The signed-in user's live sessions",
        response: { 200: SessionListResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      sessions: await app.authService.listSessions(requireAuth(request)),
    }),
  );

  app.delete(
    '/sessions/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'End one of your sessions',
        params: SessionParamsSchema,
        response: {
          200: MessageResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          404: ErrorResponseSchema,
        },
      },
    },
    async (request) => {
      await app.accountService.revokeSession(requireAuth(request), clientInfo(request), request.params.id);
      return { success: true as const, message: 'Session revoked' };
    },
  );
};
export default routes;
