import { Readable } from 'node:stream';
import {
  HistorySymbolsResponseSchema,
  IncomeQuerySchema,
  OrderHistoryPageResponseSchema,
  OrderHistoryQuerySchema,
  TradeHistoryPageResponseSchema,
  TradeHistoryQuerySchema,
} from '@kestrel/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { CsvExport } from '../../../../views/history/history-service';
import { ERRORS, ok, signedInRoutes, tradingAccountOf } from '../../../route-schemas';

/** The export's body: text/csv, header line first */
const csv = z.string().describe('text/csv (RFC 4180, CRLF line ends), a header line then one line per row');

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
export default signedInRoutes('dashboard', async (app, route) => {
  const history = app.historyService;

  app.get(
    '/symbols',
    route({
      summary:
        'Every symbol the account has imported orders, fills or income in, A to Z (the filter’s choices)',
      response: { 200: HistorySymbolsResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) => ok(await history.symbols(await tradingAccountOf(request)), 'History symbols'),
  );

  app.get(
    '/trades',
    route({
      summary:
        'Imported fills of a range, filtered by symbol and side, sorted (default newest first) and paged, with ' +
        'the count and sums (realized PnL, traded value, fees per asset) of every matching fill',
      querystring: TradeHistoryQuerySchema,
      response: { 200: TradeHistoryPageResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(await history.trades(await tradingAccountOf(request), request.query), 'Trade history'),
  );

  app.get(
    '/trades/export',
    route({
      summary: 'Every fill the filter matches as a CSV download (page and pageSize are ignored)',
      querystring: TradeHistoryQuerySchema,
      produces: ['text/csv'],
      response: { 200: csv, ...ERRORS.input },
    }),
    async (request, reply) =>
      sendCsv(reply, await history.tradesCsv(await tradingAccountOf(request), request.query)),
  );

  app.get(
    '/orders',
    route({
      summary:
        'Imported orders of a range (by the time they were placed), filtered by symbol, side, type and status, ' +
        'sorted (default newest first) and paged',
      querystring: OrderHistoryQuerySchema,
      response: { 200: OrderHistoryPageResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(await history.orders(await tradingAccountOf(request), request.query), 'Order history'),
  );

  app.get(
    '/orders/export',
    route({
      summary: 'Every order the filter matches as a CSV download (page and pageSize are ignored)',
      querystring: OrderHistoryQuerySchema,
      produces: ['text/csv'],
      response: { 200: csv, ...ERRORS.input },
    }),
    async (request, reply) =>
      sendCsv(reply, await history.ordersCsv(await tradingAccountOf(request), request.query)),
  );

  app.get(
    '/income/export',
    route({
      summary:
        'Every income entry the filter of GET /dashboard/income matches as a CSV download (page and pageSize ' +
        'are ignored)',
      querystring: IncomeQuerySchema,
      produces: ['text/csv'],
      response: { 200: csv, ...ERRORS.input },
    }),
    async (request, reply) =>
      sendCsv(reply, await history.incomeCsv(await tradingAccountOf(request), request.query)),
  );
});
