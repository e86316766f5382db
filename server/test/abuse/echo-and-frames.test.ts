import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { listenLoopback, signUp, useTestApp } from '../helper';
import { TestSocket } from '../socket-helper';

/**
 * Issue "Hardening", finding 6: 414 and 431 answers echoed the URL or headers, and bad socket frames were logged at
 * error level with stacks, one line each. Answers now say what is wrong without quoting the request; protocol
 * errors are one warn line without a stack; a connection's stream of non-JSON-RPC frames is one warn line a minute.
 */
describe('answers that quote nothing back, and socket garbage that does not flood the log', () => {
  const MARK = 'ECHOMARK';
  const t = useTestApp();
  let base: string;
  beforeAll(async () => {
    base = await listenLoopback(t.app);
  });

  /** A raw HTTP/1.1 request (inject skips Node's parser, where 431 comes from) */
  const raw = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(base);
      const req = httpRequest({ host: url.hostname, port: url.port, path, headers }, (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers a too-long path part 414 without the path', async () => {
    const res = await raw(`/api/v1/backtests/${'x'.repeat(150)}${MARK}`);
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toMatchObject({
      success: false,
      code: 'URL_TOO_LONG',
      detail: 'URL too long: a part of the path exceeds 100 characters',
    });
    expect(res.body).not.toContain(MARK);
  });

  it('answers over-large headers or URL 431 in the API error shape, quoting neither', async () => {
    for (const res of [
      await raw(`/api/v1/health?q=${'y'.repeat(20_000)}${MARK}`),
      await raw('/api/v1/health', { 'x-filler': `${'z'.repeat(20_000)}${MARK}` }).catch(() => undefined),
    ]) {
      // Node may reset the connection while a client is still sending a huge header; then nothing came back at all
      if (!res) continue;
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body)).toMatchObject({ success: false, code: 'HEADERS_TOO_LARGE' });
      expect(res.body).not.toContain(MARK);
    }
  });

  const warnLines = () =>
    t.logs.filter((l) => l.includes('"level":40') && /bad frame|socket frame refused/.test(l));

  it('logs a frame over 64 KiB or with invalid UTF-8 once, at warn, without a stack', async () => {
    const { access_token } = await signUp(t);
    const wsBase = base.replace('http', 'ws');
    const before = warnLines().length;
    for (const send of [
      (ws: WebSocket) => ws.send('x'.repeat(70_000)),
      (ws: WebSocket) => ws.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false }),
    ]) {
      const s = await TestSocket.open(`${wsBase}/ws/garbage?token=${access_token}`);
      await s.request('tools/list');
      send(s.ws);
      await s.closed;
    }
    await expect.poll(() => warnLines().length - before).toBe(2);
    const lines = warnLines().slice(before);
    for (const line of lines) expect(line).not.toContain('"stack"');
    expect(lines.map((l) => JSON.parse(l).code)).toEqual([
      'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
      'WS_ERR_INVALID_UTF8',
    ]);
    expect(t.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
  });

  it('answers each non-JSON-RPC frame but logs a connection sending 200 of them once', async () => {
    const { access_token } = await signUp(t);
    const s = await TestSocket.open(`${base.replace('http', 'ws')}/ws/garbage?token=${access_token}`);
    await s.request('tools/list');
    const before = warnLines().length;
    for (let i = 0; i < 200; i += 1) {
      const reply = await s.raw(i % 2 ? '{not json' : '[1,2]');
      expect(reply.error?.code).toBe(i % 2 ? -32700 : -32600);
    }
    const lines = warnLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ code: -32600, skipped: 0 });
    await s.close();
  });
});
