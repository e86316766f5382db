import { ErrorResponseSchema } from '@kestrel/contracts';
import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '../core/account/account-audit';
import { requireAuth } from '../core/auth';

/** OpenAPI security of every route behind `app.authenticate`: the bearer access token */
export const BEARER = [{ bearer: [] }];

/**
 * The error answers of a route that reads the user's exchange account: 400 refused (or no keys stored), 401 signed
 * out, 429 rate limited, 502 an exchange answer Kestrel could not read, 503 exchange unreachable
 * (`core/exchange/exchange-http-error.ts`)
 */
export const EXCHANGE_ERRORS = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  429: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/** The signed-in caller's id, on a route behind `app.authenticate` */
export const callerId = (request: FastifyRequest): string => requireAuth(request).userId;

/** Where a request came from, as sessions and the account audit record it */
export const clientInfo = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});
