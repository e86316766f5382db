import { z } from 'zod';

/** The live socket's tools (spec §7) */
export const SocketToolNameSchema = z.enum([
  'test_binance_connection',
  'get_account_balance',
  'get_server_status',
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
