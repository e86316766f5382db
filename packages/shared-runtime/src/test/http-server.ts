import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => Answer | undefined;

export interface Answer {
  status?: number;
  statusText?: string;
  json?: unknown;
  text?: string;
}

/**
 * A real HTTP server on 127.0.0.1, port 0, for the client tests: routes are `METHOD /path` → handler, every request
 * is recorded. A handler may answer itself (to hang, or send odd bytes) or return what to send.
 */
export async function startTestServer(routes: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw || undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // keep the raw text
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const handler = routes[`${recorded.method} ${recorded.path}`];
      if (!handler) {
        res.writeHead(404, 'Not Found', { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: `No route ${recorded.method} ${recorded.path}` }));
        return;
      }
      const answer = handler(recorded, res);
      if (!answer) return;
      const status = answer.status ?? 200;
      if (answer.text !== undefined) {
        res.writeHead(status, answer.statusText ?? STATUS_CODES[status] ?? '', {
          'content-type': 'text/plain',
        });
        res.end(answer.text);
      } else {
        res.writeHead(status, answer.statusText ?? STATUS_CODES[status] ?? '', {
          'content-type': 'application/json',
        });
        res.end(answer.json === undefined ? '' : JSON.stringify(answer.json));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** A base URL where nothing listens: a server started and closed again, so its port is free */
export async function unusedBaseUrl(): Promise<string> {
  const server = await startTestServer({});
  await server.close();
  return server.url;
}
