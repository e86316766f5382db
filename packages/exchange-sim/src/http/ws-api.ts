import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { errors } from '../common/errors';
import { toJson } from '../common/format';
import type { Route } from './route';

/** Binance's WebSocket API path (wss://ws-fapi.binance.com/ws-fapi/v1) */
export const WS_API_PATH = '/ws-fapi/v1';

/** WebSocket API methods and the REST endpoints they run as (same parameters, checks, weights and answers) */
const METHODS: Record<string, { method: Route['method']; path: string }> = {
  'order.place': { method: 'POST', path: '/fapi/v1/order' },
  'order.modify': { method: 'PUT', path: '/fapi/v1/order' },
  'order.cancel': { method: 'DELETE', path: '/fapi/v1/order' },
  'order.status': { method: 'GET', path: '/fapi/v1/order' },
  'account.status': { method: 'GET', path: '/fapi/v3/account' },
  'v2/account.status': { method: 'GET', path: '/fapi/v3/account' },
  'account.balance': { method: 'GET', path: '/fapi/v3/balance' },
  'v2/account.balance': { method: 'GET', path: '/fapi/v3/balance' },
  'account.position': { method: 'GET', path: '/fapi/v3/positionRisk' },
  'v2/account.position': { method: 'GET', path: '/fapi/v3/positionRisk' },
  depth: { method: 'GET', path: '/fapi/v1/depth' },
  'ticker.book': { method: 'GET', path: '/fapi/v1/ticker/bookTicker' },
  'userDataStream.start': { method: 'POST', path: '/fapi/v1/listenKey' },
  'userDataStream.ping': { method: 'PUT', path: '/fapi/v1/listenKey' },
  'userDataStream.stop': { method: 'DELETE', path: '/fapi/v1/listenKey' },
};

export interface WsApiHost {
  route(method: Route['method'], path: string): Route | undefined;
  execute(
    route: Route,
    request: { rawQuery: string; rawBody: string; apiKey: string | undefined; ip: string },
  ): { status: number; result: unknown; extra: Record<string, string> };
  usedWeight(ip: string): number;
  weightLimit: number;
}

type Id = string | number | null;

/**
 * The WebSocket API on the simulator's port: `{id, method, params}` in, `{id, status, result | error, rateLimits}`
 * out. Signed methods carry `apiKey`, `timestamp` and `signature` in `params`; the signature covers every other
 * parameter sorted by name and joined as a query string (HMAC hex, or base64 for RSA/Ed25519 keys), as Binance
 * documents. Each method runs through the REST endpoint it mirrors. `session.logon` is not simulated.
 */
export class WsApiServer {
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #host: WsApiHost;

  constructor(server: Server, host: WsApiHost) {
    this.#host = host;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (new URL(req.url ?? '/', 'http://sim').pathname !== WS_API_PATH) return;
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connected(ws, req));
    });
  }

  #connected(ws: WebSocket, req: IncomingMessage): void {
    const raw = req.socket.remoteAddress ?? 'unknown';
    const ip = raw.startsWith('::ffff:') ? raw.slice(7) : raw;
    ws.on('message', (data: RawData) => ws.send(this.#answer(data.toString(), ip)));
  }

  #answer(text: string, ip: string): string {
    let id: Id = null;
    const reply = (status: number, body: { result: unknown } | { error: unknown }) =>
      toJson({
        id,
        status,
        ...body,
        rateLimits: [
          {
            rateLimitType: 'REQUEST_WEIGHT',
            interval: 'MINUTE',
            intervalNum: 1,
            limit: this.#host.weightLimit,
            count: this.#host.usedWeight(ip),
          },
        ],
      });
    let request: { id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(text) as typeof request;
    } catch {
      return reply(400, { error: errors.invalidParam('The request is not valid JSON.').toBody() });
    }
    if (typeof request.id === 'string' || typeof request.id === 'number') id = request.id;
    const target = typeof request.method === 'string' ? METHODS[request.method] : undefined;
    const route = target && this.#host.route(target.method, target.path);
    if (!route) {
      return reply(400, {
        error: errors.invalidParam(`Unknown method: ${String(request.method)}.`).toBody(),
      });
    }
    const params =
      typeof request.params === 'object' && request.params !== null && !Array.isArray(request.params)
        ? (request.params as Record<string, unknown>)
        : {};
    const { apiKey, signature, ...rest } = params;
    // The signed payload: apiKey and every other parameter but the signature, sorted by name
    const entries = Object.entries({ ...rest, ...(apiKey === undefined ? {} : { apiKey }) })
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [k, String(v)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // Unencoded, as the client signs it: Binance parameter values hold no characters a query would escape
    let rawQuery = entries.map(([k, v]) => `${k}=${v}`).join('&');
    if (signature !== undefined) rawQuery += `&signature=${encodeURIComponent(String(signature))}`;
    const { status, result } = this.#host.execute(route, {
      rawQuery,
      rawBody: '',
      apiKey: apiKey === undefined ? undefined : String(apiKey),
      ip,
    });
    return status === 200 ? reply(200, { result }) : reply(status, { error: result });
  }

  close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    return new Promise((resolve) => this.#wss.close(() => resolve()));
  }
}
