import { EnvironmentResponseSchema, ErrorResponseSchema, SwitchEnvironmentSchema } from '@kestrel/contracts';
import { callerId, clientInfo, ERRORS, ok, signedInRoutes } from '../../../route-schemas';
import { requireStepUp } from '../../../step-up';

/** The signed-in user's trading environment: where the server sends their calls and orders (issue 23) */
export default signedInRoutes('environment', async (app, route) => {
  app.get(
    '/',
    route({
      summary:
        "The user's trading environment (testnet or mainnet), its history and the exchanges behind them",
      response: { 200: EnvironmentResponseSchema, ...ERRORS.input },
    }),
    async (request) => ok(await app.environmentService.state(callerId(request)), 'Trading environment'),
  );

  app.put(
    '/',
    {
      // Going LIVE: the password must have been given in the last 5 minutes (403 STEP_UP_REQUIRED)
      preHandler: async (request) => {
        const body = request.body as { environment?: unknown } | undefined;
        if (body?.environment !== 'mainnet') return;
        // Not configured is said before the password is asked for: a password would not change the answer
        app.environmentService.assertConfigured('mainnet');
        await requireStepUp(request);
      },
      ...route({
        summary: 'Switch the trading environment',
        description:
          'Switching to mainnet needs the password given in the last 5 minutes (403 STEP_UP_REQUIRED) and a ' +
          'server configured for mainnet (409 ENVIRONMENT_NOT_CONFIGURED with the reason). Bots keep trading in ' +
          'the environment they were created in.',
        body: SwitchEnvironmentSchema,
        response: {
          200: EnvironmentResponseSchema,
          ...ERRORS.input,
          403: ErrorResponseSchema,
          409: ErrorResponseSchema,
        },
      }),
    },
    async (request) => {
      const userId = callerId(request);
      const { environment, exchangeId } = request.body;
      const { state, changed } = await app.environmentService.switchTo(
        userId,
        environment,
        exchangeId ?? 'binance',
      );
      if (changed) {
        await app.accountAudit.record(
          userId,
          'environment',
          environment === 'mainnet'
            ? `Switched to mainnet (${state.current.label}): LIVE trading with real money`
            : `Switched to testnet (${state.current.label})`,
          clientInfo(request),
        );
        // Figures kept a few seconds are the other environment's account: forget them before any page reads again
        app.accountReads.changed(userId);
        // The account's live pushes follow the new environment's keys and exchange
        void app.liveStreams?.refreshUser(userId);
      }
      return ok(state, changed ? `Switched to ${environment}` : `Already on ${environment}`);
    },
  );
});
