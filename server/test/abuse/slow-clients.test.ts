import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helper';

/**
 * Slow clients cannot make the API unreachable: a request's headers and its whole body each have a deadline, and
 * one client address holds a bounded number of connections. Real sockets on real time, with short deadlines (the
 * defaults are 10 s for headers and 30 s for a whole request). The flooding client speaks from 127.0.0.2, the
 * normal one from 127.0.0.1: two addresses, as two machines would be.
 */
describe('slow uploads from one client', () => {
  let t: TestServer;
  let base: URL;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await startTestServer({
      env: {
        KESTREL_HEADERS_TIMEOUT_MS: '400',
        KESTREL_REQUEST_TIMEOUT_MS: '800',
        KESTREL_MAX_CONNECTIONS_PER_IP: '50',
      },
    });
    base = new URL(await t.listen());
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await t?.close();
  });

  /** A connection from the flooding address that sends `head` and then one byte of body every 100 ms */
  function slowUpload(head: string): Promise<{ socket: Socket; closed: Promise<string> }> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: base.hostname, port: Number(base.port), localAddress: '127.0.0.2' });
      sockets.push(socket);
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        answer += d;
      });
      const closed = new Promise<string>((done) => socket.on('close', () => done(answer)));
      socket.on('error', () => {});
      socket.once('connect', () => {
        socket.write(head);
        const drip = setInterval(() => {
          if (socket.destroyed) clearInterval(drip);
          else socket.write('x');
        }, 100);
        resolve({ socket, closed });
      });
      socket.once('error', reject);
    });
  }

  const uploadHead = (host: string) =>
    `POST /api/v1/auth/signin HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;

  it('a thousand trickling uploads: the extra connections are closed at once, the rest at the request deadline, and another client is served throughout', async () => {
    const opened = await Promise.all(
      Array.from({ length: 1000 }, () => slowUpload(uploadHead(base.host)).catch(() => undefined)),
    );
    // Beyond the cap of 50 per address, connections are closed on arrival
    await vi.waitFor(() => expect(sockets.filter((s) => !s.destroyed).length).toBeLessThanOrEqual(50), {
      timeout: 10_000,
    });

    // Meanwhile, another client gets through
    const health = await fetch(new URL('/api/v1/health', base));
    expect(health.status).toBe(200);

    // The uploads that were let in keep sending, so only the server can end them: it closes each once the whole
    // request is overdue (without an answer: the request had reached the app, which was reading its body)
    const answers = await Promise.all(opened.filter((o) => o !== undefined).map((o) => o.closed));
    expect(
      answers.filter((a) => a !== '' && !a.startsWith('HTTP/1.1 408')).map((a) => a.slice(0, 40)),
    ).toEqual([]);
    expect(sockets.every((s) => s.destroyed)).toBe(true);
    expect((await fetch(new URL('/api/v1/health', base))).status).toBe(200);
  });

  it('a client that never finishes its headers is cut off at the header deadline', async () => {
    const { closed } = await slowUpload(`GET /api/v1/health HTTP/1.1\r\nHost: ${base.host}\r\nX-Slow: `);
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
