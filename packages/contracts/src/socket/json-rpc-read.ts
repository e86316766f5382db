// No zod here: the runtime's socket reads every frame with these, and it may open before the contracts' schemas
// have loaded. `json-rpc-read.test.ts` holds them to `JsonRpcNotificationSchema` and `JsonRpcReplySchema`.
import type { JsonRpcNotification, JsonRpcReply } from './json-rpc';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A server push (`{ jsonrpc: "2.0", method, params? }`), as `JsonRpcNotificationSchema` reads it, else undefined */
export function readJsonRpcNotification(frame: unknown): JsonRpcNotification | undefined {
  if (!isRecord(frame) || frame.jsonrpc !== '2.0') return undefined;
  if (typeof frame.method !== 'string' || frame.method === '') return undefined;
  return 'params' in frame
    ? { jsonrpc: '2.0', method: frame.method, params: frame.params }
    : { jsonrpc: '2.0', method: frame.method };
}

/**
 * A reply to a request, as `JsonRpcReplySchema` reads it: an id (text or number) with `result.content` (at least one
 * `{ text }`), or an error with its message (its id may be null); else undefined
 */
export function readJsonRpcReply(frame: unknown): JsonRpcReply | undefined {
  if (!isRecord(frame) || frame.jsonrpc !== '2.0') return undefined;
  const { id, result, error } = frame;
  const idOk = typeof id === 'string' || typeof id === 'number';
  if (idOk && isRecord(result) && Array.isArray(result.content) && result.content.length > 0) {
    const content = result.content;
    const readable = content.every(
      (part: unknown) =>
        isRecord(part) &&
        typeof part.text === 'string' &&
        (part.type === undefined || typeof part.type === 'string'),
    );
    if (readable) {
      return {
        jsonrpc: '2.0',
        id,
        result: { ...result, content: content.map((part: Record<string, unknown>) => ({ ...part })) },
      } as JsonRpcReply;
    }
  }
  if (
    (idOk || id === null) &&
    isRecord(error) &&
    typeof error.message === 'string' &&
    (error.code === undefined || typeof error.code === 'number')
  ) {
    return { jsonrpc: '2.0', id, error: { ...error } } as JsonRpcReply;
  }
  return undefined;
}
