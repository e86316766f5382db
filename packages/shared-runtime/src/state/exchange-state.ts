import {
  type AccountTestResponse,
  type BinanceCredentialsResponse,
  type CreateBinanceCredentialsInput,
  type CredentialsStatusResponse,
  EXCHANGE_IDS,
  type ExchangeId,
} from '@kestrel/contracts';
import { BehaviorSubject, distinctUntilChanged, map, type Observable, Subject } from 'rxjs';
import type { ApiClient, ApiResult } from '../api/api-client';
import { EXCHANGE_TOASTS, MESSAGES, SPEC } from '../spec';
import { decodeBase64, encodeBase64, type KeyValueStorage, readJson, STORAGE_KEYS } from '../storage/storage';
import { EXCHANGE_CATALOGUE, type ExchangeCatalogueEntry } from './exchange-catalogue';
import type { ToastMessage } from './toast';

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

/** Labels used outside the card (spec §2) */
export const CONNECTION_STATUS_LABELS: Record<ConnectionStatus, string> = {
  connected: 'Connected',
  connecting: 'Connecting...',
  error: 'Error',
  disconnected: 'Disconnected',
};

/**
 * Exchange connection (spec §3). The secret key is deliberately absent: it goes to the server once and lives
 * only there. The API key is kept masked, enough to recognise which key is connected.
 */
export interface ExchangeConnection {
  id: ExchangeId;
  name: string;
  status: ConnectionStatus;
  credentials: { apiKey: string; testnet: boolean } | null;
  lastConnected: number | null;
  error: string | null;
  isAvailable: boolean;
  comingSoon: boolean;
}

export type ExchangeConnections = Readonly<Record<ExchangeId, ExchangeConnection>>;

export interface CredentialsForm {
  apiKey: string;
  secretKey: string;
}

export type ConnectResult = { success: true } | { success: false; error: string; title?: string };
export type DisconnectResult = { success: true } | { success: false; error: string };

/** Server side of the credentials (POST/DELETE /api/v1/credentials/binance) */
export interface CredentialsStore {
  /**
   * POST /api/v1/credentials/validate/binance: the server tries the keys against the exchange it is configured for
   * (reads the futures account, refuses withdraw-enabled keys) without storing them
   */
  validate(payload: CreateBinanceCredentialsInput): Promise<ApiResult<AccountTestResponse>>;
  save(
    payload: CreateBinanceCredentialsInput,
  ): Promise<{ success: true } | { success: false; error: string }>;
  /** DELETE /api/v1/credentials/binance; a 404 means there was nothing to delete */
  remove(): Promise<ApiResult<unknown>>;
  /** GET /api/v1/credentials/binance/status */
  status(): Promise<ApiResult<CredentialsStatusResponse>>;
  /** GET /api/v1/credentials/binance: the stored keys, masked; 404 when none */
  load(): Promise<ApiResult<BinanceCredentialsResponse>>;
}

export type ConnectivityResult =
  | { success: true; connectivityStatus: string | null; message: string | null }
  | { success: false; error: string };

export interface ExchangeState {
  readonly catalogue: readonly ExchangeCatalogueEntry[];
  readonly connections$: Observable<ExchangeConnections>;
  readonly connections: ExchangeConnections;
  readonly selectedExchange$: Observable<ExchangeId | null>;
  readonly selectedExchange: ExchangeId | null;
  /** True when any exchange is connected (the connect modal opens when not) */
  readonly hasConnectedExchange$: Observable<boolean>;
  /** Toasts to show, as data (spec §8 "Exchange toasts") */
  readonly toasts$: Observable<ToastMessage>;
  connect(id: string, form: CredentialsForm): Promise<ConnectResult>;
  /** Deletes the keys on the server, then resets the connection; if the server cannot delete them, nothing changes */
  disconnect(id: ExchangeId): Promise<DisconnectResult>;
  /** Asks the server whether the stored keys still reach the exchange; failures toast as Connection Error */
  checkConnectivity(id: string): Promise<ConnectivityResult>;
  /** True while {@link ExchangeState.sync} runs: the shell shows "Initializing exchanges..." */
  readonly loading$: Observable<boolean>;
  /**
   * Aligns the local view with the keys the server holds (the truth: another device may have connected or
   * disconnected). Unreachable server: the local view stays as it was.
   */
  sync(): Promise<void>;
}

export interface ExchangeStateDeps {
  storage: KeyValueStorage;
  /** The server's credentials API: connect tests the keys through it, then stores them there */
  credentials: CredentialsStore;
  /** The trading environment at connect time, recorded with the connection */
  testnet?: () => boolean;
  now?: () => number;
  /** Replaceable so the "available but not binance" rule is testable before a second exchange exists */
  catalogue?: readonly ExchangeCatalogueEntry[];
}

type StoredConnection = Pick<ExchangeConnection, 'id' | 'status' | 'credentials' | 'lastConnected' | 'error'>;

const STATUSES: readonly string[] = [
  'disconnected',
  'connecting',
  'connected',
  'error',
] satisfies ConnectionStatus[];

/** One connection as this runtime stored it (read without zod, as the page starts); anything else is skipped */
function readStoredConnection(item: unknown): StoredConnection | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { id, status, credentials, lastConnected, error } = item as Record<string, unknown>;
  if (!(EXCHANGE_IDS as readonly unknown[]).includes(id)) return undefined;
  if (typeof status !== 'string' || !STATUSES.includes(status)) return undefined;
  if (lastConnected !== null && typeof lastConnected !== 'number') return undefined;
  if (error !== null && typeof error !== 'string') return undefined;
  let keys: StoredConnection['credentials'] = null;
  if (credentials !== null) {
    if (typeof credentials !== 'object') return undefined;
    const { apiKey, testnet } = credentials as Record<string, unknown>;
    if (typeof apiKey !== 'string' || typeof testnet !== 'boolean') return undefined;
    keys = { apiKey, testnet };
  }
  return {
    id: id as ExchangeId,
    status: status as ConnectionStatus,
    credentials: keys,
    lastConnected,
    error,
  };
}

/** `dbefbc80…28cc83` → `dbef…cc83`: recognisable, useless to an attacker */
export function maskApiKey(apiKey: string): string {
  return apiKey.length <= 8 ? '••••' : `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;
}

function initialConnections(
  catalogue: readonly ExchangeCatalogueEntry[],
): Record<ExchangeId, ExchangeConnection> {
  return Object.fromEntries(
    catalogue.map((e) => [
      e.id,
      {
        id: e.id,
        name: e.name,
        status: 'disconnected',
        credentials: null,
        lastConnected: null,
        error: null,
        isAvailable: e.isAvailable,
        comingSoon: e.comingSoon,
      } satisfies ExchangeConnection,
    ]),
  ) as Record<ExchangeId, ExchangeConnection>;
}

/** Connections, their status transitions (spec §4) and the selected exchange, persisted in local storage */
export function createExchangeState(deps: ExchangeStateDeps): ExchangeState {
  const { storage } = deps;
  const now = deps.now ?? (() => Date.now());
  const toasts = new Subject<ToastMessage>();
  const catalogue = deps.catalogue ?? EXCHANGE_CATALOGUE;
  const findExchange = (id: string) => catalogue.find((e) => e.id === id);

  const loaded = initialConnections(catalogue);
  const stored = readJson(storage, STORAGE_KEYS.exchangeConnections, decodeBase64);
  if (Array.isArray(stored)) {
    for (const item of stored) {
      const c = readStoredConnection(item);
      if (!c) continue;
      // A connect interrupted by a reload did not finish: it is not connected
      const status = c.status === 'connecting' ? 'disconnected' : c.status;
      if (loaded[c.id]) loaded[c.id] = { ...loaded[c.id], ...c, status };
    }
  }
  const storedSelection = storage.getItem(STORAGE_KEYS.selectedExchange);
  const selection =
    storedSelection && loaded[storedSelection as ExchangeId]?.status === 'connected'
      ? (storedSelection as ExchangeId)
      : null;

  const connections = new BehaviorSubject<ExchangeConnections>(loaded);
  const selected = new BehaviorSubject<ExchangeId | null>(selection);

  function persist() {
    const list = Object.values(connections.getValue())
      .filter((c) => c.status !== 'disconnected' || c.lastConnected !== null)
      .map(({ id, status, credentials, lastConnected, error }) => ({
        id,
        status,
        credentials,
        lastConnected,
        error,
      }));
    storage.setItem(STORAGE_KEYS.exchangeConnections, encodeBase64(JSON.stringify(list)));
    const sel = selected.getValue();
    if (sel) storage.setItem(STORAGE_KEYS.selectedExchange, sel);
    else storage.removeItem(STORAGE_KEYS.selectedExchange);
  }

  function update(id: ExchangeId, patch: Partial<ExchangeConnection>) {
    const current = connections.getValue();
    connections.next({ ...current, [id]: { ...current[id], ...patch } });
  }

  function fail(id: ExchangeId, error: string, title: string = EXCHANGE_TOASTS.failedTitle): ConnectResult {
    update(id, { status: 'error', error });
    persist();
    if (/connectivity/i.test(error)) {
      toasts.next({
        title: EXCHANGE_TOASTS.binanceConnectivityTitle,
        description: EXCHANGE_TOASTS.binanceConnectivityText,
        variant: 'destructive',
      });
    } else {
      toasts.next({ title, description: error, variant: 'destructive' });
    }
    return { success: false, error };
  }

  async function connect(rawId: string, form: CredentialsForm): Promise<ConnectResult> {
    const entry = findExchange(rawId);
    if (!entry?.isAvailable) {
      toasts.next({
        title: MESSAGES.exchangeNotAvailableTitle,
        description: MESSAGES.exchangeNotAvailableText,
        variant: 'destructive',
      });
      return {
        success: false,
        title: MESSAGES.exchangeNotAvailableTitle,
        error: MESSAGES.exchangeNotAvailableText,
      };
    }
    const id = entry.id;
    if (id !== 'binance') return fail(id, MESSAGES.exchangeNotSupported);

    update(id, { status: 'connecting', error: null });
    if (!form.apiKey || !form.secretKey) return fail(id, MESSAGES.credentialsRequired);
    const testnet = deps.testnet?.() ?? SPEC.defaultEnvironment === 'testnet';
    const payload = {
      api_key: form.apiKey,
      secret_key: form.secretKey,
      region: SPEC.defaultCredentialsRegion,
    };
    try {
      // Tested first, so keys the exchange refuses are never stored; the secret leaves the browser only here
      const tested = await deps.credentials.validate(payload);
      if (!tested.success) return fail(id, tested.error);
      const saved = await deps.credentials.save(payload);
      if (!saved.success) return fail(id, saved.error);
    } catch (error) {
      return fail(id, error instanceof Error ? error.message : String(error), EXCHANGE_TOASTS.errorTitle);
    }
    update(id, {
      status: 'connected',
      error: null,
      lastConnected: now(),
      credentials: { apiKey: maskApiKey(form.apiKey), testnet },
    });
    selected.next(id);
    persist();
    toasts.next({
      title: EXCHANGE_TOASTS.connectedTitle,
      description: EXCHANGE_TOASTS.connectedText(entry.name),
      variant: 'default',
    });
    return { success: true };
  }

  async function disconnect(id: ExchangeId): Promise<DisconnectResult> {
    const entry = findExchange(id);
    if (!entry) return { success: false, error: MESSAGES.exchangeNotSupported };
    let removed: ApiResult<unknown>;
    try {
      removed = await deps.credentials.remove();
    } catch (error) {
      removed = { success: false, error: error instanceof Error ? error.message : String(error) };
    }
    // Saying "disconnected" while the server still holds the keys (and bots could trade with them) would be a lie:
    // the connection stays as it was and the reason is shown
    if (!removed.success && removed.status !== 404) {
      toasts.next({ title: EXCHANGE_TOASTS.errorTitle, description: removed.error, variant: 'destructive' });
      return { success: false, error: removed.error };
    }
    update(id, { status: 'disconnected', credentials: null, error: null });
    if (selected.getValue() === id) selected.next(null);
    persist();
    toasts.next({ title: EXCHANGE_TOASTS.disconnectedTitle, description: entry.name, variant: 'default' });
    return { success: true };
  }

  async function checkConnectivity(id: string): Promise<ConnectivityResult> {
    const failed = (error: string): ConnectivityResult => {
      toasts.next({ title: EXCHANGE_TOASTS.errorTitle, description: error, variant: 'destructive' });
      return { success: false, error };
    };
    if (id !== 'binance') return failed(EXCHANGE_TOASTS.connectivityNotSupported);
    let result: ApiResult<CredentialsStatusResponse>;
    try {
      result = await deps.credentials.status();
    } catch {
      return failed(EXCHANGE_TOASTS.connectivityNetworkError);
    }
    if (!result.success) {
      return failed(
        result.unreachable
          ? EXCHANGE_TOASTS.connectivityNetworkError
          : EXCHANGE_TOASTS.connectivityCheckFailed,
      );
    }
    return {
      success: true,
      connectivityStatus: result.data.data?.connectivity_status ?? null,
      message: result.data.message ?? null,
    };
  }

  const loading = new BehaviorSubject(false);
  async function sync(): Promise<void> {
    loading.next(true);
    try {
      const result = await deps.credentials.load();
      const binance = connections.getValue().binance;
      if (!binance || binance.status === 'connecting') return; // a connect in flight decides for itself
      if (result.success) {
        update('binance', {
          status: 'connected',
          error: null,
          credentials: {
            apiKey: result.data.data.api_key_masked,
            testnet: binance.credentials?.testnet ?? deps.testnet?.() ?? false,
          },
        });
        if (selected.getValue() === null) selected.next('binance');
        persist();
      } else if (result.status === 404 && binance.status === 'connected') {
        update('binance', { status: 'disconnected', credentials: null, error: null });
        if (selected.getValue() === 'binance') selected.next(null);
        persist();
      }
    } finally {
      loading.next(false);
    }
  }

  return {
    catalogue,
    checkConnectivity,
    loading$: loading.pipe(distinctUntilChanged()),
    sync,
    connections$: connections.asObservable(),
    get connections() {
      return connections.getValue();
    },
    selectedExchange$: selected.pipe(distinctUntilChanged()),
    get selectedExchange() {
      return selected.getValue();
    },
    hasConnectedExchange$: connections.pipe(
      map((all) => Object.values(all).some((c) => c.status === 'connected')),
      distinctUntilChanged(),
    ),
    toasts$: toasts.asObservable(),
    connect,
    disconnect,
  };
}

/** The server side of the credentials through the API client */
export function createCredentialsStore(api: ApiClient): CredentialsStore {
  return {
    validate: (payload) =>
      api.post('/api/v1/credentials/validate/binance', payload, {
        schema: (c) => c.AccountTestResponseSchema,
      }),
    async save(payload) {
      const result = await api.post('/api/v1/credentials/binance', payload);
      return result.success ? { success: true } : { success: false, error: result.error };
    },
    remove: () => api.delete('/api/v1/credentials/binance'),
    status: () =>
      api.get('/api/v1/credentials/binance/status', { schema: (c) => c.CredentialsStatusResponseSchema }),
    load: () => api.get('/api/v1/credentials/binance', { schema: (c) => c.BinanceCredentialsResponseSchema }),
  };
}
