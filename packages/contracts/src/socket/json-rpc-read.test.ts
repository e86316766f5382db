import { describe, expect, it } from 'vitest';
import { JsonRpcNotificationSchema, JsonRpcReplySchema } from './json-rpc';
import { readJsonRpcNotification, readJsonRpcReply } from './json-rpc-read';

const content = [{ type: 'text', text: '{"ok":true}' }];

const notifications: Array<[string, unknown]> = [
  ['a push', { jsonrpc: '2.0', method: 'notifications/ticker', params: { symbol: 'BTCUSDT' } }],
  ['a push without params', { jsonrpc: '2.0', method: 'notifications/ticker' }],
  ['a push with a field more', { jsonrpc: '2.0', method: 'm', params: 1, extra: true }],
  ['an empty method', { jsonrpc: '2.0', method: '' }],
  ['no method', { jsonrpc: '2.0', params: {} }],
  ['JSON-RPC 1', { jsonrpc: '1.0', method: 'm' }],
  ['a numeric method', { jsonrpc: '2.0', method: 5 }],
  ['null', null],
  ['a list', [{ jsonrpc: '2.0', method: 'm' }]],
];

const replies: Array<[string, unknown]> = [
  ['a result', { jsonrpc: '2.0', id: 1, result: { content } }],
  ['a result for a text id', { jsonrpc: '2.0', id: 'a', result: { content, isError: false } }],
  ['a result part without a type', { jsonrpc: '2.0', id: 1, result: { content: [{ text: 'x', extra: 1 }] } }],
  ['a result with a field more', { jsonrpc: '2.0', id: 1, result: { content }, extra: 1 }],
  ['an empty result', { jsonrpc: '2.0', id: 1, result: { content: [] } }],
  ['a result part without text', { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text' }] } }],
  [
    'a result part with a numeric type',
    { jsonrpc: '2.0', id: 1, result: { content: [{ type: 1, text: 'x' }] } },
  ],
  ['a result without an id', { jsonrpc: '2.0', result: { content } }],
  ['a result with a null id', { jsonrpc: '2.0', id: null, result: { content } }],
  ['an error', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad', data: { unlisted: ['X'] } } }],
  ['an error without a code', { jsonrpc: '2.0', id: 2, error: { message: 'bad' } }],
  ['an error for a null id', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse' } }],
  ['an error with a text code', { jsonrpc: '2.0', id: 2, error: { code: 'E', message: 'bad' } }],
  ['an error without a message', { jsonrpc: '2.0', id: 2, error: { code: 1 } }],
  ['both, the result readable', { jsonrpc: '2.0', id: 3, result: { content }, error: { message: 'x' } }],
  [
    'both, the result unreadable',
    { jsonrpc: '2.0', id: 3, result: { content: [] }, error: { message: 'x' } },
  ],
  ['neither', { jsonrpc: '2.0', id: 4 }],
  ['JSON-RPC 1', { jsonrpc: '1.0', id: 1, result: { content } }],
  ['null', null],
];

describe('the socket frame readers (without zod)', () => {
  it.each(notifications)('agree with JsonRpcNotificationSchema on %s', (_, frame) => {
    const byZod = JsonRpcNotificationSchema.safeParse(frame);
    expect(readJsonRpcNotification(frame)).toEqual(byZod.success ? byZod.data : undefined);
  });

  it.each(replies)('agree with JsonRpcReplySchema on %s', (_, frame) => {
    const byZod = JsonRpcReplySchema.safeParse(frame);
    expect(readJsonRpcReply(frame)).toEqual(byZod.success ? byZod.data : undefined);
  });
});
