import { Readable } from 'node:stream';
import {
  ErrorResponseSchema,
  HistorySymbolsResponseSchema,
  IncomeQuerySchema,
  OrderHistoryPageResponseSchema,
  OrderHistoryQuerySchema,
  TradeHistoryPageResponseSchema,
  TradeHistoryQuerySchema,
} from '@kestrel/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CsvExport } from '../../../../views/history/history-service';
import { BEARER, callerId } from '../../../route-schemas';

const tags = ['dashboard'];
const security = BEARER;
const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema };
/** The export's body: text/csv, header line first */
const csv = z.string().describe('text/csv (RFC 4180, CRLF line ends), a header line then one line per row');
const user = callerId;

/** Sends an export as a download, line by line as the database pages are read */
function sendCsv(reply: FastifyReply, file: CsvExport) {
  return (
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      // The page runs on another origin: it may read the file name only when the header is exposed
      .header('access-control-expose-headers', 'content-disposition')
      .header('cache-control', 'no-store')
      .send(Readable.from(file.lines))
  );
}

/**
 * The history page's reads (prefix /api/v1/dashboard/history): the account's imported orders and fills, filtered,
 * sorted and paged by the server, and CSV exports of everything a filter matches (income too)
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const history = app.historyService;

  app.get(
    '/symbols',
    {
      schema: {
        tags,
        security,
        summary:
          'Every symbol the account has imported orders, fills or income in, A to Z (the filter’s choices)',
        response: { 200: HistorySymbolsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await history.symbols(user(request)),
      message: 'History symbols',
    }),
  );

  app.get(
    '/trades',
    {
      schema: {
        tags,
        security,
        summary:
          'Imported fills of a range, filtered by symbol and side, sorted (default newest first) and paged, with ' +
          'the count and sums (realized PnL, traded value, fees per asset) of every matching fill',
        querystring: TradeHistoryQuerySchema,
        response: { 200: TradeHistoryPageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await history.trades(user(request), request.query),
      message: 'Trade history',
    }),
  );

  app.get(
    '/trades/export',
    {
      schema: {
        tags,
        security,
        summary: 'Every fill the filter matches as a CSV download (page and pageSize are ignored)',
        querystring: TradeHistoryQuerySchema,
        produces: ['text/csv'],
        response: { 200: csv, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, await history.tradesCsv(user(request), request.query)),
  );

  app.get(
    '/orders',
    {
      schema: {
        tags,
        security,
        summary:
          'Imported orders of a range (by the time they were placed), filtered by symbol, side, type and status, ' +
          'sorted (default newest first) and paged',
        querystring: OrderHistoryQuerySchema,
        response: { 200: OrderHistoryPageResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await history.orders(user(request), request.query),
      message: 'Order history',
    }),
  );

  app.get(
    '/orders/export',
    {
      schema: {
        tags,
        security,
        summary: 'Every order the filter matches as a CSV download (page and pageSize are ignored)',
        querystring: OrderHistoryQuerySchema,
        produces: ['text/csv'],
        response: { 200: csv, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, await history.ordersCsv(user(request), request.query)),
  );

  app.get(
    '/income/export',
    {
      schema: {
        tags,
        security,
        summary:
          'Every income entry the filter of GET /dashboard/income matches as a CSV download (page and pageSize ' +
          'are ignored)',
        querystring: IncomeQuerySchema,
        produces: ['text/csv'],
        response: { 200: csv, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, await history.incomeCsv(user(request), request.query)),
  );
};

export default routes;
