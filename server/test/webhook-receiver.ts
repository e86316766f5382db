import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local receiver: records every request; `answer` decides the reply */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
export interface Receiver {
  url: string;
  received: Received[];
  answer: (res: ServerResponse) => void;
  close(): Promise<void>;
}
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const r: Receiver = {
    url: '',
    received,
    answer: (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      r.answer(res);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return r;
}

/** The receiver's check, as a user would write it from the docs */
export function signatureChecks(secret: string, r: Received): boolean {
  const ts = String(r.headers['x-kestrel-timestamp']);
  const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${r.body}`).digest('hex')}`;
  const got = String(r.headers['x-kestrel-signature']);
  return got.length === expected.length && timingSafeEqual(Buffer.from(got), Buffer.from(expected));
}
