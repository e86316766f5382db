import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  OptimisationDetailResponseSchema,
  OptimisationIdParamsSchema,
  OptimisationListResponseSchema,
  OptimisationRequestSchema,
  OptimisationResultsResponseSchema,
  OptimisationSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import { callerId, ERRORS, ok, okMessage, signedInRoutes, tradingAccountOf } from '../../../route-schemas';

/**
 * Optimisation jobs of the signed-in user (issue 20): a parameter sweep with its overfitting statistics and,
 * optionally, a walk-forward analysis. Created queued; status and progress arrive as `notifications/optimisation`
 * on the live socket. Another user's job is a 404.
 */
export default signedInRoutes('optimisations', async (app, route) => {
  const service = app.optimisationService;

  app.post(
    '/',
    route({
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
        ...ERRORS.notFound,
        429: ErrorResponseSchema,
        503: ErrorResponseSchema,
      },
    }),
    async (request, reply) => {
      const data = await service.create(await tradingAccountOf(request), request.body);
      return reply.code(202).send(ok(data));
    },
  );

  app.get(
    '/',
    route({
      summary: "The user's optimisations, newest first",
      response: { 200: OptimisationListResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) => ok(await service.list(callerId(request))),
  );

  app.get(
    '/:id',
    route({
      summary:
        'One optimisation: request, status, statistics, best combination, walk-forward folds and curve',
      params: OptimisationIdParamsSchema,
      response: { 200: OptimisationDetailResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => ok(await service.get(callerId(request), request.params.id)),
  );

  app.get(
    '/:id/results',
    route({
      summary: "Every combination's parameters and metrics, in grid order (empty until completed)",
      params: OptimisationIdParamsSchema,
      response: { 200: OptimisationResultsResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => ok(await service.results(callerId(request), request.params.id)),
  );

  app.post(
    '/:id/cancel',
    route({
      summary: 'Cancel a queued or running optimisation (409 when it has already finished)',
      description: 'The job is canceled at once; the instance running it terminates its sweep workers.',
      params: OptimisationIdParamsSchema,
      response: { 200: OptimisationSummaryResponseSchema, ...ERRORS.notFound, 409: ErrorResponseSchema },
    }),
    async (request) => ok(await service.cancel(callerId(request), request.params.id)),
  );

  app.delete(
    '/:id',
    route({
      summary: 'Delete a finished optimisation and its results (409 while it is queued or running)',
      params: OptimisationIdParamsSchema,
      response: { 200: MessageResponseSchema, ...ERRORS.notFound, 409: ErrorResponseSchema },
    }),
    async (request) => {
      await service.delete(callerId(request), request.params.id);
      return okMessage('Optimisation deleted');
    },
  );
});
