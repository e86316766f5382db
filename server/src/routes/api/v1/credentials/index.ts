import {
  AccountTestResponseSchema,
  BinanceCredentialsResponseSchema,
  BinanceKeySetupResponseSchema,
  CreateBinanceCredentialsSchema,
  CredentialsStatusResponseSchema,
  EnvironmentQuerySchema,
  ErrorResponseSchema,
  ExchangeParamsSchema,
  MessageResponseSchema,
  TestConnectionRequestSchema,
} from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../../../lib/http-error';
import { clientInfo, tradingAccountOf } from '../../../route-schemas';
import { requireStepUp } from '../../../step-up';

const tags = ['credentials'];
const security = [{ bearer: [] }];
const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema, 404: ErrorResponseSchema };
/** Answers of the calls that reach the exchange: 409 unreadable vault row, 503 exchange not reachable */
const exchangeErrors = { ...errors, 409: ErrorResponseSchema, 503: ErrorResponseSchema };

/** The spec's credentials calls (§7); all behind the `authenticate` hook of autohooks.ts */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/binance',
    {
      schema: {
        tags,
        security,
        summary: 'Stored Binance credentials, key masked',
        querystring: EnvironmentQuerySchema,
        response: { 200: BinanceCredentialsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.credentialsService.get(await tradingAccountOf(request, request.query.environment)),
      message: 'Binance credentials stored',
    }),
  );

  app.post(
    '/binance',
    {
      // Keys that can trade: the password must have been given in the last 5 minutes (403 STEP_UP_REQUIRED)
      preHandler: requireStepUp,
      schema: {
        tags,
        security,
        summary: 'Store (or replace) Binance credentials, encrypted at rest',
        description:
          'Needs the password given in the last 5 minutes (sign-in or POST /api/v1/account/step-up): 403 STEP_UP_REQUIRED otherwise.',
        body: CreateBinanceCredentialsSchema,
        querystring: EnvironmentQuerySchema,
        response: { 201: BinanceCredentialsResponseSchema, ...errors, 403: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const account = await tradingAccountOf(request, request.query.environment);
      const { userId, environment } = account;
      const data = await app.credentialsService.save(account, request.body);
      await app.accountAudit.record(
        userId,
        'keys_saved',
        `Binance ${environment} API key ${data.api_key_masked} saved`,
        clientInfo(request),
      );
      // The account's live pushes follow the new keys (this instance; others pick them up on their next start)
      void app.liveStreams?.refreshUser(userId);
      return reply.code(201).send({ success: true as const, data, message: 'Binance credentials saved' });
    },
  );

  app.delete(
    '/binance',
    {
      schema: {
        tags,
        security,
        summary: 'Delete the stored Binance credentials',
        querystring: EnvironmentQuerySchema,
        response: { 200: MessageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const account = await tradingAccountOf(request, request.query.environment);
      const { userId, environment } = account;
      await app.credentialsService.remove(account);
      await app.accountAudit.record(
        userId,
        'keys_deleted',
        `Binance ${environment} API key deleted`,
        clientInfo(request),
      );
      void app.liveStreams?.refreshUser(userId);
      return { success: true as const, message: 'Binance credentials deleted' };
    },
  );

  app.get(
    '/binance/status',
    {
      schema: {
        tags,
        security,
        summary: 'Whether credentials are stored and whether Binance answers with them',
        querystring: EnvironmentQuerySchema,
        response: { 200: CredentialsStatusResponseSchema, ...exchangeErrors },
      },
    },
    async (request) =>
      app.credentialsService.status(await tradingAccountOf(request, request.query.environment)),
  );

  app.get(
    '/binance/key-setup',
    {
      schema: {
        tags,
        security,
        summary: "The stored key's permissions and the account's position mode, read from Binance now",
        querystring: EnvironmentQuerySchema,
        response: { 200: BinanceKeySetupResponseSchema, ...exchangeErrors, 429: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.credentialsService.keySetup(await tradingAccountOf(request, request.query.environment)),
      message: 'Binance key setup read',
    }),
  );

  app.post(
    '/test-connection',
    {
      schema: {
        tags,
        security,
        summary: 'Try the given keys, or the stored ones, against the Binance account endpoint',
        body: TestConnectionRequestSchema,
        querystring: EnvironmentQuerySchema,
        response: { 200: AccountTestResponseSchema, ...exchangeErrors },
      },
    },
    async (request) =>
      app.credentialsService.testConnection(
        await tradingAccountOf(request, request.query.environment),
        request.body,
      ),
  );

  app.post(
    '/validate/binance',
    {
      schema: {
        tags,
        security,
        summary: 'Try a set of keys against the Binance account endpoint without storing them',
        body: CreateBinanceCredentialsSchema,
        querystring: EnvironmentQuerySchema,
        response: { 200: AccountTestResponseSchema, ...exchangeErrors },
      },
    },
    async (request) =>
      app.credentialsService.validate(
        await tradingAccountOf(request, request.query.environment),
        request.body,
      ),
  );

  // Spec §5: only binance can be connected; the catalogue's other exchanges are "coming soon". Static routes above
  // win over these parametric ones in Fastify's router.
  const notSupported = async (): Promise<never> => {
    throw new HttpError(
      400,
      'EXCHANGE_NOT_SUPPORTED',
      'Exchange not supported yet: only binance can be connected',
    );
  };
  const otherExchange = {
    schema: {
      tags,
      security,
      summary: 'Any exchange other than binance: not supported yet',
      params: ExchangeParamsSchema,
      response: { 400: ErrorResponseSchema, 401: ErrorResponseSchema },
    },
  };
  app.get('/:exchange', otherExchange, notSupported);
  app.post('/:exchange', otherExchange, notSupported);
  app.delete('/:exchange', otherExchange, notSupported);
  app.post('/validate/:exchange', otherExchange, notSupported);
};
export default routes;
