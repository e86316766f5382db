import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import type { z } from 'zod';
import type { TradingAccount } from '../core/environment/trading-account';
import {
  callerId,
  ERRORS,
  ok,
  okMessage,
  type RouteOptions,
  tradingAccountOf,
  type ZodApp,
} from './route-schemas';

/** What the job routes call: a kind's service (`UserJobService` and its own create, list and get) */
export interface UserJobRoutesService<Request> {
  create(account: TradingAccount, request: Request): Promise<unknown>;
  list(userId: string): Promise<unknown>;
  get(userId: string, id: string): Promise<unknown>;
  cancel(userId: string, id: string): Promise<unknown>;
  delete(userId: string, id: string): Promise<void>;
}

/** A route's OpenAPI words */
interface RouteText {
  summary: string;
  description?: string;
}

export interface UserJobRoutes<Request extends z.ZodType> {
  service: UserJobRoutesService<z.output<Request>>;
  schemas: {
    request: Request;
    summary: z.ZodType;
    list: z.ZodType;
    detail: z.ZodType;
    idParams: z.ZodType<{ id: string }>;
  };
  text: { create: RouteText; list: RouteText; get: RouteText; cancel: RouteText; delete: RouteText };
  /** The answer of a delete: "Backtest deleted" */
  deleted: string;
  /** The kind's own reads of one job (`/:id/…`), registered after `GET /:id` */
  reads?: () => void;
}

/**
 * The routes of a job kind the user starts by hand (backtests, optimisations): create (202: queued; the rest on the
 * live socket), the user's list, one job, cancel and delete; another user's job is a 404
 */
export function userJobRoutes<Request extends z.ZodType>(
  app: ZodApp,
  route: RouteOptions,
  { service, schemas, text, deleted, reads }: UserJobRoutes<Request>,
): void {
  app.post(
    '/',
    route({
      ...text.create,
      body: schemas.request,
      response: {
        202: schemas.summary,
        ...ERRORS.notFound,
        429: ErrorResponseSchema,
        503: ErrorResponseSchema,
      },
    }),
    async (request, reply) => {
      const data = await service.create(await tradingAccountOf(request), request.body as z.output<Request>);
      return reply.code(202).send(ok(data));
    },
  );

  app.get(
    '/',
    route({ ...text.list, response: { 200: schemas.list, ...ERRORS.signedOut } }),
    async (request) => ok(await service.list(callerId(request))),
  );

  app.get(
    '/:id',
    route({ ...text.get, params: schemas.idParams, response: { 200: schemas.detail, ...ERRORS.notFound } }),
    async (request) => ok(await service.get(callerId(request), request.params.id)),
  );

  reads?.();

  app.post(
    '/:id/cancel',
    route({
      ...text.cancel,
      params: schemas.idParams,
      response: { 200: schemas.summary, ...ERRORS.notFound, 409: ErrorResponseSchema },
    }),
    async (request) => ok(await service.cancel(callerId(request), request.params.id)),
  );

  app.delete(
    '/:id',
    route({
      ...text.delete,
      params: schemas.idParams,
      response: { 200: MessageResponseSchema, ...ERRORS.notFound, 409: ErrorResponseSchema },
    }),
    async (request) => {
      await service.delete(callerId(request), request.params.id);
      return okMessage(deleted);
    },
  );
}
