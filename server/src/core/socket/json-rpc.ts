import {
  type CandleStream,
  JSON_RPC_ERRORS,
  type LiveEventKind,
  SocketToolNameSchema,
  STREAMS_SUBSCRIBE_METHOD,
  type StreamsSubscribeParams,
  StreamsSubscribeParamsSchema,
} from '@kestrel/contracts';
import type { z } from 'zod';
import { candleKey } from './socket-bus';
import { InvalidToolArgumentsError, type SocketTools } from './socket-tools';

type JsonRpcId = string | number | null;

/** A tool failed in a way that is not the exchange's answer (a bug, the database down): -32000, message only */
export const TOOL_FAILED = 'Tool failed on the server; try again shortly';

export interface FrameContext {
  userId: string;
  /**
   * New push streams; `symbols` (market pushes), `candles` (`candleKey(symbol, interval)`) and `books` (order book
   * and trades symbols) only when the client sent a list
   */
  setSubscription(subscription: {
    streams: ReadonlySet<LiveEventKind>;
    symbols?: ReadonlySet<string>;
    candles?: ReadonlySet<string>;
    books?: ReadonlySet<string>;
  }): void;
  /** Which of these symbols the exchange does not list (candle and book streams of them are refused) */
  unlisted(symbols: readonly string[]): Promise<string[]>;
  /** Unexpected failures go to the server log, never to the client */
  logError(err: unknown, method: string): void;
}

/** A JSON-RPC error reply; `data` carries what a client acts on (e.g. the refused symbols) */
export function errorFrame(id: JsonRpcId, code: number, message: string, data?: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  });
}

function resultFrame(id: string | number, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

/** MCP's tool result shape: the value as a JSON string in content[0].text */
function toolResult(value: unknown) {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/** The `streams/subscribe` in progress per socket: each waits for the one before, so they apply in sent order */
const subscribeQueue = new WeakMap<FrameContext, Promise<unknown>>();

function inOrder<T>(ctx: FrameContext, run: () => Promise<T>): Promise<T> {
  const next = (subscribeQueue.get(ctx) ?? Promise.resolve()).then(run, run);
  subscribeQueue.set(
    ctx,
    next.catch(() => {}),
  );
  return next;
}

/** Applies one checked `streams/subscribe`; candle symbols the exchange does not list refuse the whole request */
async function subscribe(
  id: string | number,
  params: StreamsSubscribeParams,
  ctx: FrameContext,
): Promise<string> {
  const streams = new Set(params.streams);
  const symbols = params.symbols ? new Set(params.symbols) : undefined;
  const pairs = params.candles;
  const books = params.books ? [...new Set(params.books)] : undefined;
  for (const [field, wanted] of [
    ['candles', pairs ? [...new Set(pairs.map((p) => p.symbol))] : []],
    ['books', books ?? []],
  ] as const) {
    if (wanted.length === 0) continue;
    const unknown = await ctx.unlisted(wanted);
    if (unknown.length > 0) {
      return errorFrame(
        id,
        JSON_RPC_ERRORS.invalidParams,
        `Invalid params: ${field}: the exchange does not list ${unknown.map((s) => s.slice(0, 20)).join(', ')}`,
        { unlisted: unknown },
      );
    }
  }
  const candles = pairs ? new Set(pairs.map((p) => candleKey(p.symbol, p.interval))) : undefined;
  ctx.setSubscription({
    streams,
    ...(symbols ? { symbols } : {}),
    ...(candles ? { candles } : {}),
    ...(books ? { books: new Set(books) } : {}),
  });
  return resultFrame(
    id,
    toolResult({
      streams: [...streams],
      ...(symbols ? { symbols: [...symbols] } : {}),
      ...(pairs ? { candles: uniquePairs(pairs) } : {}),
      ...(books ? { books } : {}),
    }),
  );
}

/** The first problem of a `streams/subscribe` request, in words naming the field */
function subscribeError(issue: z.core.$ZodIssue | undefined): string {
  const field = issue?.path[0];
  if (field === 'symbols') return `Invalid params: symbols: ${issue?.message}`;
  if (field === 'books') return `Invalid params: books: ${issue?.message}`;
  if (field === 'candles') {
    // candles.2.interval → candles[2].interval
    const where = issue?.path
      .slice(1)
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('');
    return `Invalid params: candles${where}: ${issue?.message}`;
  }
  return `Invalid params: streams must be a list of ${StreamsSubscribeParamsSchema.shape.streams.element.options.join(', ')}`;
}

function uniquePairs(pairs: readonly CandleStream[]): CandleStream[] {
  const seen = new Map(pairs.map((p) => [candleKey(p.symbol, p.interval), p]));
  return [...seen.values()];
}

function isId(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Answers one text frame. Resolves with the reply frame, or undefined for a notification (a request without id,
 * which JSON-RPC never answers). Every malformed frame gets an error reply; nothing here closes the socket.
 */
export async function handleFrame(
  raw: string,
  ctx: FrameContext,
  tools: SocketTools,
): Promise<string | undefined> {
  let frame: unknown;
  try {
    frame = JSON.parse(raw);
  } catch {
    return errorFrame(null, JSON_RPC_ERRORS.parseError, 'Parse error: the frame is not valid JSON');
  }
  if (Array.isArray(frame)) {
    return errorFrame(
      null,
      JSON_RPC_ERRORS.invalidRequest,
      'Invalid request: batches are not supported; send one JSON-RPC 2.0 request per frame',
    );
  }
  if (!frame || typeof frame !== 'object') {
    return errorFrame(
      null,
      JSON_RPC_ERRORS.invalidRequest,
      'Invalid request: expected a JSON-RPC 2.0 object',
    );
  }
  const request = frame as Record<string, unknown>;
  const hasId = 'id' in request && request.id !== undefined;
  if (hasId && request.id !== null && !isId(request.id)) {
    return errorFrame(
      null,
      JSON_RPC_ERRORS.invalidRequest,
      'Invalid request: id must be a string or a number',
    );
  }
  const id: JsonRpcId = hasId ? (request.id as JsonRpcId) : null;
  if (request.jsonrpc !== '2.0') {
    return errorFrame(id, JSON_RPC_ERRORS.invalidRequest, 'Invalid request: jsonrpc must be "2.0"');
  }
  if (typeof request.method !== 'string' || request.method === '') {
    return errorFrame(
      id,
      JSON_RPC_ERRORS.invalidRequest,
      'Invalid request: method must be a non-empty string',
    );
  }
  const method = request.method;
  // Client notifications (no id) need no answer, and none of our methods is useful without one
  if (!hasId) return undefined;
  if (id === null) {
    return errorFrame(
      null,
      JSON_RPC_ERRORS.invalidRequest,
      'Invalid request: id must be a string or a number',
    );
  }
  const params = request.params;

  try {
    switch (method) {
      case 'tools/list':
        return resultFrame(id, { tools: tools.list() });
      case 'tools/call': {
        if (!params || typeof params !== 'object' || Array.isArray(params)) {
          return errorFrame(
            id,
            JSON_RPC_ERRORS.invalidParams,
            'Invalid params: expected { name, arguments }',
          );
        }
        const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
        const tool = SocketToolNameSchema.safeParse(name);
        if (!tool.success) {
          const known = SocketToolNameSchema.options.join(', ');
          return errorFrame(
            id,
            JSON_RPC_ERRORS.invalidParams,
            typeof name === 'string' && name !== ''
              ? `Unknown tool: ${name.slice(0, 64)}. Available tools: ${known}`
              : `Invalid params: name must be one of ${known}`,
          );
        }
        if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
          return errorFrame(id, JSON_RPC_ERRORS.invalidParams, 'Invalid params: arguments must be an object');
        }
        const value = await tools.call({ userId: ctx.userId }, tool.data, args);
        return resultFrame(id, toolResult(value));
      }
      case STREAMS_SUBSCRIBE_METHOD: {
        const parsed = StreamsSubscribeParamsSchema.safeParse(params);
        if (!parsed.success) {
          return errorFrame(id, JSON_RPC_ERRORS.invalidParams, subscribeError(parsed.error.issues[0]));
        }
        return await inOrder(ctx, () => subscribe(id, parsed.data, ctx));
      }
      default:
        return errorFrame(id, JSON_RPC_ERRORS.methodNotFound, `Method not found: ${method.slice(0, 64)}`);
    }
  } catch (err) {
    if (err instanceof InvalidToolArgumentsError) {
      return errorFrame(id, JSON_RPC_ERRORS.invalidParams, err.message);
    }
    ctx.logError(err, method);
    return errorFrame(id, -32000, TOOL_FAILED);
  }
}
