import { z } from 'zod';
import { KlineIntervalSchema } from '../market/market';

/**
 * The live socket's tools (spec §7), and the agents' read-only tools (issue 18): they answer for the socket's own
 * user only, like the HTTP calls; none of them changes anything
 */
export const SocketToolNameSchema = z.enum([
  'test_binance_connection',
  'get_account_balance',
  'get_server_status',
  'list_agents',
  'get_agent_status',
  'get_agent_decisions',
]);
export type SocketToolName = z.infer<typeof SocketToolNameSchema>;

const JsonRpcIdSchema = z.union([z.string(), z.number()]);

/** A `tools/call` request: JSON-RPC 2.0 with the tool's `name` and `arguments` */
export const ToolCallRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcIdSchema,
  method: z.literal('tools/call'),
  params: z.object({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()),
  }),
});
export type ToolCallRequest = z.infer<typeof ToolCallRequestSchema>;

/** A reply carries id and either result.content[0].text (a JSON string) or error.message */
export const JsonRpcReplySchema = z.union([
  z.object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcIdSchema,
    result: z.looseObject({
      content: z.array(z.looseObject({ type: z.string().optional(), text: z.string() })).min(1),
    }),
  }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcIdSchema.nullable(),
    error: z.looseObject({ code: z.number().optional(), message: z.string() }),
  }),
]);
export type JsonRpcReply = z.infer<typeof JsonRpcReplySchema>;

/** A server push: a JSON-RPC notification (no id) */
export const JsonRpcNotificationSchema = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  params: z.unknown().optional(),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotificationSchema>;

/** JSON-RPC 2.0 error codes the socket answers with (the spec's own numbers) */
export const JSON_RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** One entry of the `tools/list` answer (MCP style: name, description, JSON Schema of the arguments) */
export const SocketToolInfoSchema = z.object({
  name: SocketToolNameSchema,
  description: z.string(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
});
export type SocketToolInfo = z.infer<typeof SocketToolInfoSchema>;

/**
 * Client → server: which push streams this socket wants (`streams/subscribe`, a request with an id). The list
 * replaces the previous one; an empty list stops pushes. A new socket receives every stream until it sends one,
 * so a client that never subscribes still gets its pushes.
 *
 * `symbols` picks the symbols of the market pushes (ticker, markPrice), replacing the server's default watch list;
 * the symbols of the account's open positions are always added. Omitted: the list stays as it was.
 *
 * `candles` picks the (symbol, interval) pairs of the candle pushes, replacing the previous pairs (none at first).
 * Symbols the exchange does not list are refused (-32602) naming them, also as `error.data.unlisted` (a list).
 * Omitted: the pairs stay as they were.
 */
export const SOCKET_STREAMS = [
  'ticker',
  'markPrice',
  'order',
  'position',
  'balance',
  'bot',
  'backtest',
  'optimisation',
  'candle',
  'notification',
] as const;
/** Most symbols one socket may watch at once */
export const MAX_WATCHED_SYMBOLS = 50;
/** Most (symbol, interval) candle streams one socket may watch at once */
export const MAX_WATCHED_CANDLES = 10;
const WatchedSymbolSchema = z
  .string()
  .regex(/^[A-Za-z0-9]{2,20}$/, { error: 'a symbol is 2-20 letters and digits, e.g. BTCUSDT' })
  .transform((s) => s.toUpperCase());
/** One candle stream: a symbol and one of Binance's kline intervals */
export const CandleStreamSchema = z.object({ symbol: WatchedSymbolSchema, interval: KlineIntervalSchema });
export type CandleStream = z.infer<typeof CandleStreamSchema>;
export const StreamsSubscribeParamsSchema = z.object({
  streams: z.array(z.enum(SOCKET_STREAMS)),
  symbols: z
    .array(WatchedSymbolSchema)
    .max(MAX_WATCHED_SYMBOLS, { error: `at most ${MAX_WATCHED_SYMBOLS} symbols` })
    .optional(),
  candles: z
    .array(CandleStreamSchema)
    .max(MAX_WATCHED_CANDLES, { error: `at most ${MAX_WATCHED_CANDLES} candle streams` })
    .optional(),
});
export type StreamsSubscribeParams = z.infer<typeof StreamsSubscribeParamsSchema>;
export const STREAMS_SUBSCRIBE_METHOD = 'streams/subscribe';
