import { z } from 'zod';
import { KlineIntervalSchema } from '../market/market';
import { MAX_WATCHED_BOOKS, MAX_WATCHED_CANDLES, MAX_WATCHED_SYMBOLS, SOCKET_STREAMS } from './socket-names';

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

/** One entry of the `tools/list` answer (MCP style: name, description, JSON Schema of the arguments) */
export const SocketToolInfoSchema = z.object({
  name: SocketToolNameSchema,
  description: z.string(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
});
export type SocketToolInfo = z.infer<typeof SocketToolInfoSchema>;

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
  books: z
    .array(WatchedSymbolSchema)
    .max(MAX_WATCHED_BOOKS, { error: `at most ${MAX_WATCHED_BOOKS} order books` })
    .optional(),
});
export type StreamsSubscribeParams = z.infer<typeof StreamsSubscribeParamsSchema>;
