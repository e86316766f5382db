import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../common/clock';
import { BinanceError, errors } from '../common/errors';
import { toJson } from '../common/format';
import { DEFAULT_SYMBOLS, resolveSymbols, type SymbolSpec } from '../common/symbols';
import { Exchange, type ExchangeOptions } from '../matching/exchange';
import { StreamServer, type StreamServerOptions } from '../ws/server';
import { accountRoutes } from './account';
import { ADMIN_PREFIX, handleAdmin } from './admin';
import { algoOrderRoutes } from './algo-order';
import { accountForKey, authenticateSigned } from './auth';
import { type FaultRule, Faults } from './faults';
import { ListenKeys, listenKeyRoutes } from './listen-key';
import { marketDataRoutes } from './market-data';
import { orderRoutes } from './order';
import { Params } from './params';
import { RateLimiter, type RateLimitOptions } from './rate-limit';
import type { Route, RouteContext } from './route';
import { WsApiServer } from './ws-api';

const MAX_BODY = 1024 * 1024;

export interface SimServerOptions extends Partial<Omit<ExchangeOptions, 'symbols' | 'clock'>> {
  /** Injected clock; the wall clock by default */
  clock?: Clock;
  /** Symbol names (e.g. ["BTCUSDT"]) or full specs; BTCUSDT, ETHUSDT, SOLUSDT by default */
  symbols?: readonly (string | SymbolSpec)[];
  rateLimits?: RateLimitOptions;
  /** When set, the admin API needs header `x-sim-admin-token` with this value */
  adminToken?: string;
  /**
   * How often the simulator processes time on its own (fills, funding, streams), in ms. Default 1000 on the wall
   * clock and 0 (never: call `tick()` after moving the clock) with an injected clock.
   */
  tickMs?: number;
  /** WebSocket connection lifetime and ping/pong timing (Binance's by default) */
  streams?: StreamServerOptions;
}

export interface Listening {
  /** REST base URL, e.g. http://127.0.0.1:4567 (use as fapi base) */
  url: string;
  /** WebSocket base URL, e.g. ws://127.0.0.1:4567 (routed paths /market, /public, /private below it) */
  wsUrl: string;
  port: number;
}

function clientIp(req: IncomingMessage): string {
  const ip = req.socket.remoteAddress ?? 'unknown';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('Request body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The simulator behind one HTTP port: Binance's REST paths, the routed WebSocket streams and the `/_sim` admin API.
 * Every request runs: faults (before) → clock sync → IP weight → authentication → order limits → handler →
 * faults (after) → reply with `X-MBX-USED-WEIGHT-1M`.
 */
export class SimServer {
  readonly exchange: Exchange;
  readonly faults = new Faults();
  readonly limiter: RateLimiter;
  readonly listenKeys = new ListenKeys();
  /**
   * Every distinct API key this simulator was sent (REST `X-MBX-APIKEY`), known or not: the simulator's own record
   * of which keys reached this host (a test judges "a key never goes to another environment's host" by it)
   */
  readonly apiKeysSeen = new Set<string>();
  readonly #routes = new Map<string, Route>();
  readonly #paths = new Set<string>();
  readonly #server: Server;
  readonly #streams: StreamServer;
  readonly #wsApi: WsApiServer;
  readonly #adminToken?: string;

  /** The token `/_sim` requires (undefined: none, for in-process use by tests) */
  get adminToken(): string | undefined {
    return this.#adminToken;
  }
  readonly #tickMs: number;
  readonly #held = new Set<ServerResponse>();
  #timer?: NodeJS.Timeout;

  constructor(options: SimServerOptions = {}) {
    const clock = options.clock ?? systemClock;
    const symbols = (options.symbols ?? DEFAULT_SYMBOLS).map((s) =>
      typeof s === 'string' ? (resolveSymbols([s])[0] as SymbolSpec) : s,
    );
    this.exchange = new Exchange({ ...options, clock, symbols });
    this.limiter = new RateLimiter(options.rateLimits);
    this.#adminToken = options.adminToken;
    this.#tickMs = options.tickMs ?? (clock === systemClock ? 1000 : 0);
    for (const route of [
      ...marketDataRoutes,
      ...accountRoutes,
      ...orderRoutes,
      ...algoOrderRoutes,
      ...listenKeyRoutes(this.listenKeys, (key) => this.#streams.closeListenKey(key)),
    ]) {
      this.#routes.set(`${route.method} ${route.path}`, route);
      this.#paths.add(route.path);
    }
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((e: unknown) => {
        console.error('exchange-sim: unexpected error', e);
        if (!res.headersSent) this.#reply(res, 500, errors.unknown().toBody(), {});
      });
    });
    this.#streams = new StreamServer(this.#server, this.exchange, this.listenKeys, options.streams);
    this.#wsApi = new WsApiServer(this.#server, {
      route: (method, path) => this.route(method, path),
      execute: (route, request) => this.execute(route, request),
      usedWeight: (ip) => this.limiter.used(ip, this.exchange.clock.now()),
      weightLimit: this.limiter.weightPerMinute,
    });
  }

  /** Processes time up to the clock's now (fills, funding, liquidations) and pushes stream updates */
  tick(): void {
    this.exchange.sync();
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<Listening> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    if (this.#tickMs > 0) {
      this.#timer = setInterval(() => this.tick(), this.#tickMs);
      this.#timer.unref();
    }
    const address = this.#server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return {
      url: `http://${shown}:${address.port}`,
      wsUrl: `ws://${shown}:${address.port}`,
      port: address.port,
    };
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    for (const res of this.#held) res.destroy();
    this.#held.clear();
    await this.#streams.close();
    await this.#wsApi.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
    const text = toJson(body);
    res.writeHead(status, {
      'content-type': 'application/json;charset=UTF-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  }

  /** Applies `error`, `timeout` and `drop` faults; true when the request is finished by one */
  async #applyFaults(
    rules: FaultRule[],
    res: ServerResponse,
    headers: Record<string, string>,
  ): Promise<boolean> {
    for (const rule of rules) {
      if (rule.kind === 'latency') await new Promise((r) => setTimeout(r, rule.ms));
    }
    const final = rules.find((r) => r.kind !== 'latency');
    if (!final) return false;
    if (final.kind === 'error') {
      // 503 is Binance's "execution status unknown" (or -1008 overload); other 5xx come back as unknown errors
      const err =
        final.status !== 503
          ? errors.unknown(final.status)
          : final.code === -1008
            ? errors.overloaded()
            : errors.executionUnknown();
      this.#reply(res, final.status, err.toBody(), headers);
    } else if (final.kind === 'timeout') {
      // Never answered: the client's own timeout has to fire; closed with the server
      this.#held.add(res);
      res.on('close', () => this.#held.delete(res));
    } else {
      res.socket?.destroy();
    }
    return true;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q === -1 ? '' : rawUrl.slice(q + 1);
    let rawBody: string;
    try {
      rawBody = await readBody(req);
    } catch {
      this.#reply(res, 413, { code: -1000, msg: 'Request body too large.' }, {});
      return;
    }

    if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) {
      this.#admin(req, res, method, path, rawBody);
      return;
    }

    const sentKey = req.headers['x-mbx-apikey'];
    if (typeof sentKey === 'string' && this.apiKeysSeen.size < 100_000) this.apiKeysSeen.add(sentKey);
    const faultKey = typeof sentKey === 'string' ? sentKey : undefined;
    const now = () => this.exchange.clock.now();
    const ip = clientIp(req);
    const headers = (): Record<string, string> => ({
      'x-mbx-used-weight-1m': String(this.limiter.used(ip, now())),
    });
    if (await this.#applyFaults(this.faults.take(method, path, 'before', faultKey), res, headers())) return;

    const route = this.#routes.get(`${method} ${path}`);
    if (!route) {
      const status = this.#paths.has(path) ? 405 : 404;
      this.#reply(
        res,
        status,
        { code: -1000, msg: `No endpoint ${method} ${path} on the simulator.` },
        headers(),
      );
      return;
    }

    // A JSON-typed body carries no parameters on Binance (the official SDK sends `{}` beside a full query)
    const isForm = !(req.headers['content-type'] ?? '').includes('json');
    const body = isForm ? rawBody : '';
    const apiKey = req.headers['x-mbx-apikey'];
    const { status, result, extra } = this.execute(route, {
      rawQuery,
      rawBody: body,
      apiKey: Array.isArray(apiKey) ? apiKey[0] : apiKey,
      ip,
    });
    if (await this.#applyFaults(this.faults.take(method, path, 'after', faultKey), res, headers())) return;
    this.#reply(res, status, result, { ...headers(), ...extra });
  }

  /**
   * One request through the pipeline after faults: clock sync → IP weight → authentication → order limits →
   * handler. Shared by REST and the WebSocket API; Binance errors become `{code,msg}` results with their status
   */
  execute(
    route: Route,
    request: { rawQuery: string; rawBody: string; apiKey: string | undefined; ip: string },
  ): { status: number; result: unknown; extra: Record<string, string> } {
    const now = () => this.exchange.clock.now();
    const { rawQuery, rawBody, apiKey, ip } = request;
    const extra: Record<string, string> = {};
    try {
      this.exchange.sync();
      const params = Params.parse(rawQuery, rawBody);
      const weight = typeof route.weight === 'function' ? route.weight(params) : route.weight;
      this.limiter.spend(ip, weight, now());
      const ctx: RouteContext = { exchange: this.exchange, params, now: now(), limits: this.limiter };
      if (route.security === 'USER_STREAM') {
        ctx.account = accountForKey(this.exchange, apiKey, ip);
      } else if (route.security === 'SIGNED' || route.security === 'SIGNED_WALLET') {
        ctx.account = authenticateSigned(this.exchange, apiKey, ip, rawQuery, rawBody, params, now());
      }
      if (ctx.account && route.security !== 'SIGNED_WALLET') {
        const p = ctx.account.permissions;
        if (!p.enableFutures || !p.enableReading) throw errors.rejectedKey(ip);
      }
      if (route.countsAsOrder && ctx.account) {
        const cost = route.countsAsOrder === true ? undefined : route.countsAsOrder;
        const counts = this.limiter.countOrder(ctx.account.id, now(), cost);
        extra['x-mbx-order-count-10s'] = String(counts.tenSeconds);
        extra['x-mbx-order-count-1m'] = String(counts.minute);
      }
      return { status: 200, result: route.handler(ctx), extra };
    } catch (e) {
      if (!(e instanceof BinanceError)) throw e;
      if (e.httpStatus === 418 || e.httpStatus === 429) extra['retry-after'] = '60';
      return { status: e.httpStatus, result: e.toBody(), extra };
    }
  }

  /** The route of a REST method and path, as the WebSocket API looks its methods up */
  route(method: Route['method'], path: string): Route | undefined {
    return this.#routes.get(`${method} ${path}`);
  }

  #admin(req: IncomingMessage, res: ServerResponse, method: string, path: string, rawBody: string): void {
    if (this.#adminToken !== undefined && !sameToken(req.headers['x-sim-admin-token'], this.#adminToken)) {
      this.#reply(res, 401, { error: 'The admin API needs the x-sim-admin-token header' }, {});
      return;
    }
    // Only JSON changes anything: a web page can POST text/plain (or a form) to a loopback port without asking,
    // but a JSON body (and the token header) needs a CORS preflight, which the simulator never grants
    if (method !== 'GET' && method !== 'HEAD' && !isJson(req.headers['content-type'])) {
      this.#reply(
        res,
        415,
        { error: 'The admin API takes JSON: send Content-Type: application/json (an empty body is fine)' },
        {},
      );
      return;
    }
    let body: unknown;
    if (rawBody.trim() !== '') {
      try {
        body = JSON.parse(rawBody);
      } catch {
        this.#reply(res, 400, { error: 'The request body is not valid JSON' }, {});
        return;
      }
    }
    const reply = handleAdmin(
      {
        exchange: this.exchange,
        faults: this.faults,
        dropSockets: () => this.#streams.dropAll(),
        apiKeysSeen: this.apiKeysSeen,
      },
      method,
      path,
      body,
    );
    this.#reply(res, reply.status, reply.body, {});
  }
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}

/** Compares in constant time, so the token cannot be guessed a character at a time from response times */
function sameToken(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
