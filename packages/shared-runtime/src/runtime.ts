import type { RuntimeConfig } from '@kestrel/contracts';
import { distinctUntilChanged, map, merge, type Observable, type Subscription, skip } from 'rxjs';
import { type ApiClient, type ApiResult, createApiClient } from './api/api-client';
import { type CircuitBreaker, createCircuitBreaker } from './api/circuit-breaker';
import { browserDpopSigner, type DpopSigner } from './auth/dpop';
import { createSession, type RefreshLocks, type Session } from './auth/session';
import { createStepUp, type StepUp } from './auth/step-up';
import { createLiveData, type LiveData } from './live/live-data';
import { createSocketBus, type SocketBus, type WebSocketFactory } from './socket/socket-bus';
import { createCredentialsStore, createExchangeState, type ExchangeState } from './state/exchange-state';
import { browserThemeDeps, createThemeStore, type ThemeStore, type ThemeStoreDeps } from './state/theme';
import { createNotices, type Notices, type Notification, type ToastMessage } from './state/toast';
import { createTradingEnvironment, type TradingEnvironment } from './state/trading-environment';
import { defaultStorage, type KeyValueStorage } from './storage/storage';

/** Everything a page reads data through; one per browser page */
export interface KestrelRuntime {
  readonly config: RuntimeConfig;
  readonly storage: KeyValueStorage;
  readonly breaker: CircuitBreaker;
  readonly session: Session;
  readonly api: ApiClient;
  /** The password prompt before guarded actions (keys, mainnet, live bots): the shell shows it, the API client asks */
  readonly stepUp: StepUp;
  readonly bus: SocketBus;
  /** Page-level live data over the bus: merged watches, live/paused, typed pushes (pages use this, not `bus.subscribe`) */
  readonly live: LiveData;
  readonly exchanges: ExchangeState;
  readonly environment: TradingEnvironment;
  /** Light or dark (spec §4): the shell's top-bar toggle and /settings change this one store */
  readonly theme: ThemeStore;
  /** Where remotes (and the runtime's services) ask for toasts and notifications */
  readonly notices: Notices;
  /** Every toast to show: the runtime's own (exchange, environment) and those any remote asked for */
  readonly toasts$: Observable<ToastMessage>;
  /** Every notification-area message any remote asked for */
  readonly notifications$: Observable<Notification>;
  /** Restores the session (provisional, then validated); the socket follows the session from then on */
  start(): Promise<void>;
  /** Closes the socket and stops timers (tests, hot reload) */
  dispose(): void;
}

export interface KestrelRuntimeDeps {
  storage?: KeyValueStorage;
  fetch?: typeof fetch;
  createWebSocket?: WebSocketFactory;
  now?: () => number;
  /** The system preference and document root the theme follows (default: the page's) */
  theme?: Partial<Pick<ThemeStoreDeps, 'prefersLight' | 'root'>>;
  /** The refresh token's key proofs; default: WebCrypto + IndexedDB when the page has them */
  dpop?: DpopSigner;
  /** Cross-tab refresh lock; default: the browser's Web Locks when present */
  locks?: RefreshLocks;
}

/** `navigator.locks` in the shape the session uses, when the browser has it */
function browserLocks(): RefreshLocks | undefined {
  const locks = globalThis.navigator?.locks;
  if (!locks) return undefined;
  return { request: (name, callback) => locks.request(name, () => callback()) };
}

/** Wires the services together; the shell calls {@link initKestrelRuntime} once, tests call this directly */
export function createKestrelRuntime(config: RuntimeConfig, deps: KestrelRuntimeDeps = {}): KestrelRuntime {
  const storage = deps.storage ?? defaultStorage();
  const baseUrl = () => config.apiBaseUrl;
  const breaker = createCircuitBreaker();
  const locks = deps.locks ?? browserLocks();
  const session = createSession({
    baseUrl,
    storage,
    dpop: deps.dpop ?? browserDpopSigner(),
    ...(locks ? { locks } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  // The prompt confirms through the client, and the client asks the prompt: bind late
  let client: ApiClient | undefined;
  const stepUp = createStepUp(async (password) => {
    const result = await client?.post('/api/v1/account/step-up', { password });
    if (!result) return { success: false, error: 'Not ready yet' };
    return result.success ? { success: true } : { success: false, error: result.error };
  });
  const api = createApiClient({
    baseUrl,
    breaker,
    auth: session,
    stepUp,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  client = api;
  const bus = createSocketBus({
    baseUrl: () => config.socketBaseUrl,
    token: () => session.accessToken(),
    // A refused socket follows the API wrapper's 401 rule: refresh once, else sign out (requiresLogin)
    auth: session,
    ...(deps.createWebSocket ? { createWebSocket: deps.createWebSocket } : {}),
  });
  const live = createLiveData({ bus });
  // The environment records the selected exchange, and connections record the environment: bind late
  let exchanges: ExchangeState | undefined;
  const environment = createTradingEnvironment({
    storage,
    currentExchange: () => exchanges?.selectedExchange ?? null,
    server: {
      load: async () =>
        unwrap(await api.get('/api/v1/environment', { schema: (c) => c.EnvironmentResponseSchema })),
      switchTo: async (environment, exchangeId) =>
        unwrap(
          await api.request({
            method: 'PUT',
            path: '/api/v1/environment',
            body: { environment, exchangeId },
            schema: (c) => c.EnvironmentResponseSchema,
          }),
        ),
    },
    ...(deps.now ? { now: deps.now } : {}),
  });
  exchanges = createExchangeState({
    storage,
    credentials: createCredentialsStore(api),
    testnet: () => environment.state.isTestnetMode,
    ...(deps.now ? { now: deps.now } : {}),
  });

  const theme = createThemeStore({ ...browserThemeDeps(storage), ...deps.theme });
  const notices = createNotices();
  let sessionWatch: Subscription | undefined;
  let envWatch: Subscription | undefined;
  let synced = false;
  let environmentSynced = false;
  return {
    config,
    storage,
    breaker,
    session,
    api,
    stepUp,
    bus,
    live,
    exchanges,
    environment,
    theme,
    notices,
    toasts$: merge(exchanges.toasts$, environment.toasts$, notices.toasts$),
    notifications$: notices.notifications$,
    async start() {
      // The socket carries the user's token: open it only while signed in, close it on sign-out
      sessionWatch ??= session.state$.subscribe((s) => {
        if (s.status === 'signed-out') {
          synced = false;
          environmentSynced = false;
          bus.disconnect();
          return;
        }
        if (s.status !== 'signed-in') return;
        bus.connect();
        // Once per sign-in, from the restored (provisional) session on: the server knows which exchange keys the
        // stored token's user has, and asking beside the session check rather than after it is one round trip less
        // before a signed-in page passes the exchanges gate (a refused token ends the session: synced resets)
        if (!synced) {
          synced = true;
          void exchanges?.sync();
        }
        // Once per confirmed sign-in: where this user's orders go is the server's to say
        if (!s.provisional && !environmentSynced) {
          environmentSynced = true;
          void environment.refresh();
        }
      });
      // The other environment has its own key (or none): the connection state follows the server's answer
      envWatch ??= environment.state$
        .pipe(
          map((s) => s.currentEnvironment),
          distinctUntilChanged(),
          skip(1),
        )
        .subscribe(() => void exchanges?.sync());
      await session.start();
    },
    dispose() {
      sessionWatch?.unsubscribe();
      sessionWatch = undefined;
      envWatch?.unsubscribe();
      envWatch = undefined;
      bus.disconnect();
      live.dispose();
      breaker.dispose();
      theme.dispose();
    },
  };
}

/** The `data` of a `{ success, data, message }` answer, failures passed through */
function unwrap<T>(result: ApiResult<{ data: T }>): ApiResult<T> {
  return result.success ? { success: true, data: result.data.data } : result;
}

let singleton: KestrelRuntime | undefined;

/**
 * Creates the page's runtime once. Module Federation shares this package as a singleton, so the shell and every
 * remote get the same instance; a second call returns the first runtime rather than opening a second socket.
 */
export function initKestrelRuntime(config: RuntimeConfig, deps: KestrelRuntimeDeps = {}): KestrelRuntime {
  singleton ??= createKestrelRuntime(config, deps);
  return singleton;
}

/** The page's runtime; throws when the shell has not created it yet */
export function getKestrelRuntime(): KestrelRuntime {
  if (!singleton)
    throw new Error('Kestrel runtime is not started yet: the shell calls initKestrelRuntime at start');
  return singleton;
}

/** Forgets the singleton (tests only) */
export function resetKestrelRuntimeForTests(): void {
  singleton?.dispose();
  singleton = undefined;
}
