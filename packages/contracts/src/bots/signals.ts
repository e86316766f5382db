import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { countParam, ms } from '../common/fields';

/**
 * Signals in: a charting tool's alert (TradingView and the like) posts JSON to a bot's webhook,
 * `POST /api/v1/signals/{hookId}`. The hook's id is in the URL, its secret in the body (`secret`) or, for senders
 * that can sign, an HMAC-SHA256 of the raw body in the `X-Kestrel-Signature: sha256=<hex>` header. Each signal
 * names itself (`id`, acted on once), says when it was sent (`time`, refused outside `SIGNAL_WINDOW_MS`) and what to
 * do: `buy` / `sell` / `close` trade a running webhook-signal bot (any running bot for `close`), `start` / `stop`
 * run any bot. What each one caused, or why it was refused, is kept and listed on the bot's page and its log.
 */

export const SIGNAL_ACTIONS = ['buy', 'sell', 'close', 'start', 'stop'] as const;
export const SignalActionSchema = z.enum(SIGNAL_ACTIONS, {
  error: `action must be one of ${SIGNAL_ACTIONS.join(', ')}`,
});
export type SignalAction = z.infer<typeof SignalActionSchema>;

/** How far a signal's `time` may lie from the server's clock, either way: older ones are replays, refused */
export const SIGNAL_WINDOW_MS = 5 * 60_000;
/** Signals one bot takes per minute; more are refused (429) until the minute has passed */
export const SIGNALS_PER_MINUTE = 30;
/** The header a signing sender puts its HMAC in */
export const SIGNAL_SIGNATURE_HEADER = 'x-kestrel-signature';
/** The largest body a signal may have, bytes */
export const SIGNAL_MAX_BYTES = 4_096;

const positiveDecimal = (name: string) =>
  z.union([z.number(), z.string()], { error: `${name} must be a number` }).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : Number(v.trim());
    if (!Number.isFinite(n) || n <= 0 || (typeof v === 'string' && v.trim() === '')) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a positive number` });
      return z.NEVER;
    }
    return n;
  });

/**
 * A symbol as alerts write it: TradingView's `{{ticker}}` of a Binance perpetual is `BTCUSDT.P`, and some tools
 * prefix the exchange (`BINANCE:BTCUSDT`). Both are read as Binance's own name
 */
export function signalSymbol(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/^BINANCE:/, '')
    .replace(/\.P$/, '');
}

/** When the alert was sent: ISO 8601 (TradingView's `{{timenow}}`) or milliseconds since the epoch */
const signalTime = z
  .union([z.number(), z.string()], { error: 'time must be an ISO 8601 time or milliseconds since 1970' })
  .transform((v, ctx) => {
    const t = typeof v === 'number' ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : Date.parse(v);
    if (!Number.isFinite(t)) {
      ctx.addIssue({ code: 'custom', message: 'time must be an ISO 8601 time or milliseconds since 1970' });
      return z.NEVER;
    }
    return t;
  });

/** The JSON an alert posts. Unknown fields are refused, so a misspelt `qty` is said, not ignored */
export const SignalBodySchema = z.strictObject({
  /** The hook's secret, unless the request is signed */
  secret: z.string({ error: 'secret must be a string' }).max(200, 'secret is too long').optional(),
  /** The signal's own id: a second signal with it is not acted on again */
  id: z
    .string({ error: 'id must be a string' })
    .trim()
    .min(1, 'id must not be empty')
    .max(100, 'id must be at most 100 characters'),
  action: SignalActionSchema,
  symbol: z
    .string({ error: 'symbol must be a string' })
    .transform(signalSymbol)
    .pipe(z.string().regex(/^[A-Z0-9]{2,30}$/, 'symbol must be a Binance symbol such as BTCUSDT')),
  time: signalTime,
  /** Base-asset quantity (buy, sell); absent: the bot sizes it from its budget */
  quantity: positiveDecimal('quantity').optional(),
  /** A limit price (buy, sell); absent: at market */
  price: positiveDecimal('price').optional(),
});
export type SignalBody = z.output<typeof SignalBodySchema>;

/**
 * `acted`: it placed its orders (or started or stopped the bot); `nothing`: taken, but there was nothing to do (a
 * buy while already long); `refused`: not acted on, `reason` says why; `pending`: handed to the server instance
 * running the bot, which acts on it within seconds
 */
export const SIGNAL_OUTCOMES = ['acted', 'nothing', 'refused', 'pending'] as const;
export const SignalOutcomeSchema = z.enum(SIGNAL_OUTCOMES);
export type SignalOutcome = z.infer<typeof SignalOutcomeSchema>;

/** One signal as received, with what it caused */
export const SignalRecordSchema = z.object({
  id: z.uuid(),
  /** The sender's id; null when the signal was refused before it could be trusted (a bad secret, a bad body) */
  signalId: z.string().nullable(),
  action: SignalActionSchema.nullable(),
  symbol: z.string().nullable(),
  quantity: z.number().nullable(),
  price: z.number().nullable(),
  receivedAt: ms,
  outcome: SignalOutcomeSchema,
  /** What it did or why it was refused, in words */
  message: z.string(),
  /** Client order ids of the orders it placed */
  orders: z.array(z.string()),
});
export type SignalRecord = z.infer<typeof SignalRecordSchema>;

/** A bot's webhook: where alerts post. Its secret is shown once, when it is made */
export const SignalHookSchema = z.object({
  hookId: z.string(),
  /** The path to post to, on this server's address (`/api/v1/signals/{hookId}`) */
  path: z.string(),
  createdAt: ms,
});
export type SignalHook = z.infer<typeof SignalHookSchema>;

export const SignalHookResponseSchema = okResponse(z.object({ hook: SignalHookSchema.nullable() }));
/** A new hook (or a new secret for the bot's hook: the old URL and secret stop working at once) */
export const SignalHookCreatedResponseSchema = okResponse(
  z.object({ hook: SignalHookSchema, secret: z.string() }),
);

export const SIGNALS_LIST_MAX = 100;
export const SignalsQuerySchema = z.object({
  limit: countParam('limit', { max: SIGNALS_LIST_MAX, default: 20 }),
});
export const SignalsResponseSchema = okResponse(z.object({ signals: z.array(SignalRecordSchema) }));

/** The answer to an alert's POST; `duplicate`: the id was seen before, this is the first one's outcome */
export const SignalAnswerSchema = okResponse(
  z.object({ signal: SignalRecordSchema, duplicate: z.boolean() }),
);

/**
 * The alert message to paste into TradingView: its placeholders fill in the order's side, the ticker and the
 * time, and the id of each alert (the time keeps two alerts of one order apart)
 */
export function signalAlertTemplate(secret: string): string {
  return JSON.stringify(
    {
      secret,
      id: '{{ticker}}-{{strategy.order.id}}-{{timenow}}',
      action: '{{strategy.order.action}}',
      symbol: '{{ticker}}',
      time: '{{timenow}}',
    },
    null,
    2,
  );
}
