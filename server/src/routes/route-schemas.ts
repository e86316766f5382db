import { ErrorResponseSchema, type TradingEnvironment } from '@kestrel/contracts';
import type { FastifyRequest, FastifySchema } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClientInfo } from '../core/account/account-audit';
import { requireAuth } from '../core/auth';
import type { TradingAccount } from '../core/environment/trading-account';

/** OpenAPI security of every route behind `app.authenticate`: the bearer access token */
export const BEARER = [{ bearer: [] }];

const signedOut = { 401: ErrorResponseSchema };
const input = { 400: ErrorResponseSchema, ...signedOut };

/** The error answers of a signed-in route, by what the route reads */
export const ERRORS = {
  /** Nothing from the request: 401 signed out */
  signedOut,
  /** Input: 400 refused (naming the field), 401 signed out */
  input,
  /** One of the user's records: 404 unknown, and another user's record answers the same */
  notFound: { ...input, 404: ErrorResponseSchema },
  /**
   * The user's exchange account: 400 refused (or no keys stored), 401 signed out, 429 rate limited, 502 an exchange
   * answer Kestrel could not read, 503 exchange unreachable (`core/exchange/exchange-http-error.ts`)
   */
  exchange: { ...input, 429: ErrorResponseSchema, 502: ErrorResponseSchema, 503: ErrorResponseSchema },
};

/** Builds a route's options from its schema (summary, contract schemas of its input and answers) */
export type RouteOptions = <const S extends FastifySchema>(
  schema: S,
) => { schema: S & { tags: string[]; security: typeof BEARER } };

export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * A page's routes behind `app.authenticate`. The hook and the OpenAPI security go together here so that a route
 * the document calls signed-in always is: `register` declares the routes, `route(schema)` gives each its options
 * with the page's tags and the bearer security (Fastify still infers the handler's types from the schema).
 */
export function signedInRoutes(
  tags: string | string[],
  register: (app: ZodApp, route: RouteOptions) => Promise<void>,
): FastifyPluginAsyncZod {
  const pageTags = typeof tags === 'string' ? [tags] : tags;
  const route: RouteOptions = (schema) => ({ schema: { tags: pageTags, security: BEARER, ...schema } });
  return async (app) => {
    app.addHook('onRequest', app.authenticate);
    await register(app, route);
  };
}

/** The answer of a successful call, as every contract's response schema spells it */
export function ok<T>(data: T): { success: true; data: T };
export function ok<T>(data: T, message: string): { success: true; data: T; message: string };
export function ok<T>(data: T, message?: string) {
  return message === undefined ? { success: true as const, data } : { success: true as const, data, message };
}

/** The answer of a successful call with nothing to return (`MessageResponseSchema`) */
export const okMessage = (message: string) => ({ success: true as const, message });

/** The signed-in caller's id, on a route behind `app.authenticate` */
export const callerId = (request: FastifyRequest): string => requireAuth(request).userId;

/**
 * The trading account a signed-in request acts on, resolved once for the request: the environment the route was
 * asked for (`?environment=`), else the caller's current one. Handlers call it once and hand the account to the
 * service, which never looks the environment up again (`core/environment/trading-account.ts` says why)
 */
export const tradingAccountOf = (
  request: FastifyRequest,
  environment?: TradingEnvironment,
): Promise<TradingAccount> => request.server.environmentService.accountOf(callerId(request), environment);

/** Where a request came from, as sessions and the account audit record it */
export const clientInfo = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});
