import {
  OptimisationDetailResponseSchema,
  OptimisationIdParamsSchema,
  OptimisationListResponseSchema,
  OptimisationRequestSchema,
  OptimisationResultsResponseSchema,
  OptimisationSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import { userJobRoutes } from '../../../job-routes';
import { callerId, ERRORS, ok, signedInRoutes } from '../../../route-schemas';

/**
 * Optimisation jobs of the signed-in user (issue 20): a parameter sweep with its overfitting statistics and,
 * optionally, a walk-forward analysis. Created queued; status and progress arrive as `notifications/optimisation`
 * on the live socket. Another user's job is a 404.
 */
export default signedInRoutes('optimisations', async (app, route) => {
  const service = app.optimisationService;

  userJobRoutes(app, route, {
    service,
    schemas: {
      request: OptimisationRequestSchema,
      summary: OptimisationSummaryResponseSchema,
      list: OptimisationListResponseSchema,
      detail: OptimisationDetailResponseSchema,
      idParams: OptimisationIdParamsSchema,
    },
    text: {
      create: {
        summary: 'Start an optimisation (202: queued; progress and completion arrive on the live socket)',
        description:
          'Each parameter of `space` takes a list (`{ values }`) or a range (`{ from, to, step }`, both ends ' +
          'included); parameters not swept keep `params` (else the strategy defaults). At most 20000 combinations. ' +
          'Every combination is backtested on the server (KESTREL_BACKTEST_CONCURRENCY worker threads) with the ' +
          'same costs and data as a single backtest; the job stores every combination and the statistics: ' +
          'deflated Sharpe ratio over all trials, probability of backtest overfitting (CSCV) and a random-entry ' +
          'baseline. `walkForward` adds a walk-forward analysis of the same grid (train, test and step ' +
          'durations in ms). Refusals name the field: an empty range, a zero step, windows longer than the range.',
      },
      list: { summary: "The user's optimisations, newest first" },
      get: {
        summary:
          'One optimisation: request, status, statistics, best combination, walk-forward folds and curve',
      },
      cancel: {
        summary: 'Cancel a queued or running optimisation (409 when it has already finished)',
        description: 'The job is canceled at once; the instance running it terminates its sweep workers.',
      },
      delete: {
        summary: 'Delete a finished optimisation and its results (409 while it is queued or running)',
      },
    },
    deleted: 'Optimisation deleted',
    reads: () =>
      app.get(
        '/:id/results',
        route({
          summary: "Every combination's parameters and metrics, in grid order (empty until completed)",
          params: OptimisationIdParamsSchema,
          response: { 200: OptimisationResultsResponseSchema, ...ERRORS.notFound },
        }),
        async (request) => ok(await service.results(callerId(request), request.params.id)),
      ),
  });
});
