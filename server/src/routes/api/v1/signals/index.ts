import { ErrorResponseSchema } from '@kestrel/contracts';
import { SIGNAL_MAX_BYTES, SIGNAL_SIGNATURE_HEADER, SignalAnswerSchema } from '@kestrel/contracts/bots';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../route-schemas';

const refusal = ErrorResponseSchema;

/**
 * `POST /api/v1/signals/{hookId}`: where charting tools' alerts post (no sign-in: the hook's secret, in the body or
 * as an HMAC of the raw body, is the authority). The body is read as sent, whatever its content type (TradingView
 * posts JSON as text/plain when the message is not a JSON object it recognises), up to SIGNAL_MAX_BYTES
 */
const route: FastifyPluginAsyncZod = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: SIGNAL_MAX_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  app.post(
    '/:hookId',
    {
      schema: {
        tags: ['signals'],
        summary: 'A trade signal for a bot (a TradingView-style alert)',
        description:
          'JSON: `secret` (unless signed), `id` (acted on once), `action` (buy, sell, close, start, stop), `symbol` ' +
          '(BTCUSDT, BTCUSDT.P or BINANCE:BTCUSDT), `time` (ISO 8601 or ms; within 5 minutes of the server), and ' +
          '`quantity` / `price` for a buy or a sell. Signed instead: header `X-Kestrel-Signature: sha256=<hex ' +
          'HMAC-SHA256 of the raw body under the secret>`. 200 acted (or nothing to do; `duplicate` when the id ' +
          'was seen: the first outcome), 202 handed to the instance running the bot, 400 a bad body or a stale ' +
          'time, 401 a wrong secret, 404 no such hook, 409 the bot cannot act on it, 429 over 30 a minute. Every ' +
          'one but 404 and 429 is listed on the bot’s page with what it caused.',
        params: z.object({ hookId: z.string().min(1).max(64) }),
        response: {
          200: SignalAnswerSchema,
          202: SignalAnswerSchema,
          400: refusal,
          401: refusal,
          404: refusal,
          409: refusal,
          413: refusal,
          429: refusal,
        },
      },
    },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const header = request.headers[SIGNAL_SIGNATURE_HEADER];
      const signature = Array.isArray(header) ? header[0] : header;
      const answer = await app.botSignals.receive(request.params.hookId, raw, signature);
      const message = answer.duplicate ? 'Already received' : answer.signal.message;
      return reply
        .code(answer.status)
        .send(ok({ signal: answer.signal, duplicate: answer.duplicate }, message));
    },
  );
};
export default route;
