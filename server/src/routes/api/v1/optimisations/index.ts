import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  OptimisationDetailResponseSchema,
  OptimisationIdParamsSchema,
  OptimisationListResponseSchema,
  OptimisationRequestSchema,
  OptimisationResultsResponseSchema,
  OptimisationSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEARER, callerId } from '../../../route-schemas';

const tags = ['optimisations'];
const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema, 404: ErrorResponseSchema };

/**
 * Optimisation jobs of the signed-in user (issue 20): a parameter sweep with its overfitting statistics and,
 * optionally, a walk-forward analysis. Created queued; status and progress arrive as `notifications/optimisation`
 * on the live socket. Another user's job is a 404.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const service = app.optimisationService;

  app.post(
    '/',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Start an optimisation (202: queued; progress and completion arrive on the live socket)',
        description:
          'Each parameter of `space` takes a list (`{ values }`) or a range (`{ from, to, step }`, both ends ' +
          'included); parameters not swept keep `params` (else the strategy defaults). At most 20000 combinations. ' +
          'Every combination is backtested on the server (KESTREL_BACKTEST_CONCURRENCY worker threads) with the ' +
          'same costs and data as a single backtest; the job stores every combination and the statistics: ' +
          'deflated Sharpe ratio over all trials, probability of backtest overfitting (CSCV) and a random-entry ' +
          'baseline. `walkForward` adds a walk-forward analysis of the same grid (train, test and step ' +
          'durations in ms). Refusals name the field: an empty range, a zero step, windows longer than the range.',
        body: OptimisationRequestSchema,
        response: {
          202: OptimisationSummaryResponseSchema,
          ...errors,
          429: ErrorResponseSchema,
          503: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const data = await service.create(callerId(request), request.body);
      return reply.code(202).send({ success: true as const, data });
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags,
        security: BEARER,
        summary: "The user's optimisations, newest first",
        response: { 200: OptimisationListResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({ success: true as const, data: await service.list(callerId(request)) }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security: BEARER,
        summary:
          'One optimisation: request, status, statistics, best combination, walk-forward folds and curve',
        params: OptimisationIdParamsSchema,
        response: { 200: OptimisationDetailResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.get(callerId(request), request.params.id),
    }),
  );

  app.get(
    '/:id/results',
    {
      schema: {
        tags,
        security: BEARER,
        summary: "Every combination's parameters and metrics, in grid order (empty until completed)",
        params: OptimisationIdParamsSchema,
        response: { 200: OptimisationResultsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.results(callerId(request), request.params.id),
    }),
  );

  app.post(
    '/:id/cancel',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Cancel a queued or running optimisation (409 when it has already finished)',
        description: 'The job is canceled at once; the instance running it terminates its sweep workers.',
        params: OptimisationIdParamsSchema,
        response: { 200: OptimisationSummaryResponseSchema, ...errors, 409: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.cancel(callerId(request), request.params.id),
    }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Delete a finished optimisation and its results (409 while it is queued or running)',
        params: OptimisationIdParamsSchema,
        response: { 200: MessageResponseSchema, ...errors, 409: ErrorResponseSchema },
      },
    },
    async (request) => {
      await service.delete(callerId(request), request.params.id);
      return { success: true as const, message: 'Optimisation deleted' };
    },
  );
};
export default routes;
