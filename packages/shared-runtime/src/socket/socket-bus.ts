import {
  LIVE_EVENT_METHODS,
  type LiveEventKind,
  type LiveEventNotice,
  readJsonRpcNotification,
  readJsonRpcReply,
  STREAMS_SUBSCRIBE_METHOD,
  type StreamsSubscribeParams,
  type ToolCallRequest,
} from '@kestrel/contracts';
import {
  BehaviorSubject,
  concatMap,
  distinctUntilChanged,
  filter,
  from,
  map,
  type Observable,
  of,
  Subject,
  share,
} from 'rxjs';
import type { ZodType } from 'zod';
import {
  type ContractSchema,
  type Contracts,
  loadedContracts,
  resolveSchema,
  tryLoadContracts,
} from '../lazy-contracts';
import { MESSAGES, SPEC } from '../spec';

/** The server answered a request with a JSON-RPC error: its message, code and `data` */
export class SocketRequestError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'SocketRequestError';
  }
}

/** The part of the browser's WebSocket the bus uses; the `ws` client fits it in Node tests */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

/** Spec §4: the live socket is connected or closed; `connecting` covers the handshake and reconnect attempts */
export type SocketStatus = 'connecting' | 'connected' | 'closed';

/** Close code of the server's socket end when it refuses the token or the session has ended */
export const SOCKET_UNAUTHORIZED_CLOSE = 4401;

/** A call failed because the server refused the session; the user has to sign in again */
export class SocketAuthError extends Error {
  readonly requiresLogin = true;
  constructor() {
    super(MESSAGES.authExpired);
    this.name = 'SocketAuthError';
  }
}

export interface SocketBus {
  readonly status$: Observable<SocketStatus>;
  readonly status: SocketStatus;
  /**
   * True once the server refused the token (close 4401) and one refresh did not help: the bus stops, the session's
   * auth data is cleared, and the user must sign in again. Back to false at the next `connect()`
   */
  readonly requiresLogin$: Observable<boolean>;
  /** The id in the socket URL, generated once per page */
  readonly clientId: string;
  /** Opens the socket (no-op while open or opening) */
  connect(): void;
  /** Closes on purpose: no reconnect until the next `connect()` */
  disconnect(): void;
  /**
   * Calls a tool with JSON-RPC 2.0 `tools/call`; resolves with the parsed `result.content[0].text`, rejects with
   * `error.message`, `Not connected to MCP server` (no socket within 3 s) or `Request timeout` (no reply in 10 s)
   */
  callTool<T = unknown>(name: string, args?: Record<string, unknown>, schema?: ContractSchema<T>): Promise<T>;
  /**
   * Chooses the pushes this page wants (`streams/subscribe`): the stream kinds and, optionally, the symbols of
   * market pushes (the server adds those of open positions) and the candle streams. Kept and sent again on every
   * reconnect; resolves once the open socket has taken it (at once while disconnected). One choice per page: a
   * later call replaces it. Pages do not call it: they watch through `runtime.live`, which merges their wishes
   */
  subscribe(choice: StreamsSubscribeParams): Promise<void>;
  /** Every server push, raw */
  readonly notifications$: Observable<{ method: string; params: unknown }>;
  /** Server pushes of one kind, checked against their contract; malformed ones are dropped */
  events$<K extends LiveEventKind>(kind: K): Observable<LiveEventNotice[K]>;
  readonly tickers$: Observable<LiveEventNotice['ticker']>;
  readonly markPrices$: Observable<LiveEventNotice['markPrice']>;
  readonly orders$: Observable<LiveEventNotice['order']>;
  readonly positions$: Observable<LiveEventNotice['position']>;
  readonly balances$: Observable<LiveEventNotice['balance']>;
  readonly botEvents$: Observable<LiveEventNotice['bot']>;
  readonly candles$: Observable<LiveEventNotice['candle']>;
}

export interface SocketBusDeps {
  /** Socket base URL (`{ws host}`), read at each connect */
  baseUrl: () => string;
  /** Access token for the `token` query parameter, read at each connect */
  token: () => string | null;
  /**
   * The session's refresh and clear (spec §7, the same rule as the API wrapper's 401): a socket refused with 4401
   * refreshes the token once and reconnects; if that fails, auth data is cleared and `requiresLogin` reported
   */
  auth?: { refresh(): Promise<boolean>; clear(): void };
  createWebSocket?: WebSocketFactory;
  clientId?: string;
  maxReconnectAttempts?: number;
  reconnectDelayUnitMs?: number;
  connectWaitMs?: number;
  requestTimeoutMs?: number;
}

const OPEN = 1;

/** The close code of a close event (browser CloseEvent or the `ws` client's) */
function closeCode(event: unknown): number | undefined {
  const code = (event as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

interface Pending {
  /** The request as sent: re-sent on the next socket when the server refused the first one's token */
  frame: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** The live socket bus (spec §7 "Live socket", §9 constants) */
export function createSocketBus(deps: SocketBusDeps): SocketBus {
  const createWebSocket: WebSocketFactory =
    deps.createWebSocket ?? ((url) => new globalThis.WebSocket(url) as unknown as WebSocketLike);
  const clientId = deps.clientId ?? `client-${globalThis.crypto.randomUUID()}`;
  const maxAttempts = deps.maxReconnectAttempts ?? SPEC.socketMaxReconnectAttempts;
  const delayUnit = deps.reconnectDelayUnitMs ?? SPEC.socketReconnectDelayUnitMs;
  const connectWait = deps.connectWaitMs ?? SPEC.socketConnectWaitMs;
  const requestTimeout = deps.requestTimeoutMs ?? SPEC.socketRequestTimeoutMs;

  const status = new BehaviorSubject<SocketStatus>('closed');
  const requiresLogin = new BehaviorSubject<boolean>(false);
  /** A refresh was already spent on a 4401 since the server last proved it accepted us (any frame from it) */
  let refreshSpent = false;
  /** The refresh a 4401 started, while it runs */
  let refreshing: Promise<boolean> | undefined;
  const notifications = new Subject<{ method: string; params: unknown }>();
  const pending = new Map<number, Pending>();
  let socket: WebSocketLike | undefined;
  let wanted = false;
  let attempts = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let nextId = 1;
  /** The page's choice of pushes, re-sent on every new socket */
  let subscription: StreamsSubscribeParams | undefined;

  function url(): string {
    const token = deps.token() ?? '';
    return `${deps.baseUrl().replace(/\/+$/, '')}/${encodeURIComponent(clientId)}?token=${encodeURIComponent(token)}`;
  }

  function failPending(message: string, error: () => Error = () => new Error(message)) {
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      pending.delete(id);
      p.reject(error());
    }
  }

  function onMessage(raw: unknown) {
    let frame: unknown;
    try {
      frame = JSON.parse(typeof raw === 'string' ? raw : String(raw));
    } catch {
      return; // not JSON: nothing we can route
    }
    // Pushes outnumber replies: route on shape first so a push never pays for a failed reply parse
    if (frame && typeof frame === 'object' && !('id' in frame)) {
      const notice = readJsonRpcNotification(frame);
      if (notice) notifications.next({ method: notice.method, params: notice.params });
      return;
    }
    const reply = readJsonRpcReply(frame);
    if (reply) {
      const id = reply.id;
      const p = typeof id === 'number' ? pending.get(id) : undefined;
      if (!p || typeof id !== 'number') return; // late reply after a timeout
      pending.delete(id);
      clearTimeout(p.timer);
      if ('error' in reply) {
        const { message, code, data } = reply.error;
        p.reject(new SocketRequestError(message, code, data));
        return;
      }
      const text = reply.result.content[0]?.text ?? '';
      try {
        p.resolve(JSON.parse(text));
      } catch {
        p.resolve(text); // a tool may answer plain text
      }
    }
  }

  function open() {
    reconnectTimer = undefined;
    status.next('connecting');
    let ws: WebSocketLike;
    try {
      ws = createWebSocket(url());
    } catch (error) {
      // A malformed URL or a blocked scheme throws at once: retrying the same URL cannot help. Only the error's
      // name is logged: its message would repeat the URL, and the URL carries the access token.
      console.error(`Live socket could not be created (${error instanceof Error ? error.name : 'error'})`);
      status.next('closed');
      return;
    }
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      attempts = 0;
      // Requests the previous socket carried when its token was refused: that server never ran them
      for (const p of pending.values()) ws.send(p.frame);
      // Every new socket starts with the server's defaults: tell it again what this page wants
      sendSubscription(ws);
      status.next('connected');
    };
    ws.onmessage = (event) => {
      if (socket !== ws) return;
      // Only an accepted socket hears from the server: the token was good, a later 4401 may refresh again
      refreshSpent = false;
      onMessage(event.data);
    };
    ws.onerror = () => {
      // a close event follows every error; reconnecting is handled there
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = undefined;
      // A refused token is not a network fault: retrying it five times cannot help
      if (closeCode(event) === SOCKET_UNAUTHORIZED_CLOSE) {
        refused();
        return;
      }
      failPending(MESSAGES.socketNotConnected);
      status.next('closed');
      if (wanted && attempts < maxAttempts) {
        attempts += 1;
        reconnectTimer = setTimeout(open, delayUnit * attempts);
      }
    };
  }

  /** The server refused the token: refresh once and reconnect, else the user must sign in again */
  function refused() {
    if (!wanted) {
      failPending(MESSAGES.socketNotConnected);
      status.next('closed');
      return;
    }
    if (refreshSpent || !deps.auth) {
      loginRequired();
      return;
    }
    refreshSpent = true;
    status.next('connecting');
    // While it runs, a call or connect() waits for it rather than opening with the refused token
    const attempt = deps.auth.refresh().catch(() => false);
    refreshing = attempt;
    void attempt.then((ok) => {
      if (refreshing !== attempt) return; // disconnected meanwhile
      refreshing = undefined;
      if (ok) open();
      else loginRequired();
    });
  }

  function loginRequired() {
    wanted = false;
    failPending(MESSAGES.authExpired, () => new SocketAuthError());
    status.next('closed');
    requiresLogin.next(true);
    deps.auth?.clear();
  }

  function connect() {
    wanted = true;
    requiresLogin.next(false);
    if (socket || reconnectTimer !== undefined || refreshing) return;
    attempts = 0;
    open();
  }

  function disconnect() {
    wanted = false;
    if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    refreshing = undefined;
    const ws = socket;
    socket = undefined;
    failPending(MESSAGES.socketNotConnected);
    status.next('closed');
    ws?.close(1000, 'client disconnect');
  }

  /** Waits up to 3 s for the socket (spec §9 "connect wait"), starting it when idle */
  function whenConnected(): Promise<WebSocketLike> {
    if (socket && socket.readyState === OPEN && status.getValue() === 'connected')
      return Promise.resolve(socket);
    if (!socket && reconnectTimer === undefined && !refreshing) connect();
    return new Promise<WebSocketLike>((resolve, reject) => {
      // Plain timers rather than RxJS `timeout`: its scheduler uses setInterval, and one clock is easier to test
      const timer = setTimeout(() => {
        subscription.unsubscribe();
        reject(new Error(MESSAGES.socketNotConnected));
      }, connectWait);
      const subscription = status.pipe(filter((s) => s === 'connected')).subscribe(() => {
        clearTimeout(timer);
        queueMicrotask(() => subscription.unsubscribe());
        if (socket && socket.readyState === OPEN) resolve(socket);
        else reject(new Error(MESSAGES.socketNotConnected));
      });
      // Refused for good: no point waiting out the connect wait
      subscription.add(
        requiresLogin.pipe(filter(Boolean)).subscribe(() => {
          clearTimeout(timer);
          queueMicrotask(() => subscription.unsubscribe());
          reject(new SocketAuthError());
        }),
      );
    });
  }

  /** Sends one JSON-RPC request on `ws` and settles with its reply (10 s request timeout) */
  function request(ws: WebSocketLike, method: string, params: unknown): Promise<unknown> {
    const id = nextId++;
    const frame = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(MESSAGES.socketRequestTimeout));
      }, requestTimeout);
      pending.set(id, { frame, resolve, reject, timer });
      ws.send(frame);
    });
  }

  async function callTool<T>(
    name: string,
    args: Record<string, unknown> = {},
    schema?: ContractSchema<T>,
  ): Promise<T> {
    // The reply's schema loads beside the connect and the call (a pick from the contracts may not be loaded yet)
    const parser: Promise<ZodType<T> | undefined> | undefined = schema
      ? resolveSchema(schema).catch(() => undefined)
      : undefined;
    const ws = await whenConnected();
    const params: ToolCallRequest['params'] = { name, arguments: args };
    const value = await request(ws, 'tools/call', params);
    if (!parser) return value as T;
    const resolved = await parser;
    if (!resolved) throw new Error(MESSAGES.contractsUnavailable);
    const parsed = resolved.safeParse(value);
    if (!parsed.success) {
      throw new Error(`Unexpected reply from the live socket: ${parsed.error.issues[0]?.message ?? ''}`);
    }
    return parsed.data;
  }

  /** Sends the page's stream choice on a fresh socket; a failure only means the server's defaults apply */
  function sendSubscription(ws: WebSocketLike) {
    if (!subscription) return;
    request(ws, STREAMS_SUBSCRIBE_METHOD, subscription).catch(() => {});
  }

  async function subscribe(choice: StreamsSubscribeParams): Promise<void> {
    subscription = {
      streams: [...choice.streams],
      ...(choice.symbols ? { symbols: [...choice.symbols] } : {}),
      ...(choice.candles ? { candles: choice.candles.map((c) => ({ ...c })) } : {}),
      ...(choice.books ? { books: [...choice.books] } : {}),
    };
    if (socket && socket.readyState === OPEN && status.getValue() === 'connected') {
      await request(socket, STREAMS_SUBSCRIBE_METHOD, subscription);
    }
  }

  const shared$ = notifications.asObservable().pipe(share());
  function events$<K extends LiveEventKind>(kind: K): Observable<LiveEventNotice[K]> {
    const method = LIVE_EVENT_METHODS[kind];
    const read = (contracts: Contracts | undefined, params: unknown): LiveEventNotice[K] | undefined => {
      const schema = contracts?.LIVE_EVENT_SCHEMAS[kind] as ZodType<LiveEventNotice[K]> | undefined;
      const parsed = schema?.safeParse(params);
      return parsed?.success ? parsed.data : undefined;
    };
    return shared$.pipe(
      filter((n) => n.method === method),
      // At once when the contracts are loaded; pushes that come before wait for them, in order (none is lost)
      concatMap((n) => {
        const contracts = loadedContracts();
        return contracts
          ? of(read(contracts, n.params))
          : from(tryLoadContracts()).pipe(map((c) => read(c, n.params)));
      }),
      filter((notice): notice is LiveEventNotice[K] => notice !== undefined),
    );
  }

  return {
    status$: status.pipe(distinctUntilChanged()),
    get status() {
      return status.getValue();
    },
    requiresLogin$: requiresLogin.pipe(distinctUntilChanged()),
    clientId,
    connect,
    disconnect,
    callTool,
    subscribe,
    notifications$: shared$,
    events$,
    tickers$: events$('ticker'),
    markPrices$: events$('markPrice'),
    orders$: events$('order'),
    positions$: events$('position'),
    balances$: events$('balance'),
    botEvents$: events$('bot'),
    candles$: events$('candle'),
  };
}
