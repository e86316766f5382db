export {
  type ApiAuth,
  type ApiClient,
  type ApiClientDeps,
  type ApiRequest,
  type ApiResult,
  createApiClient,
} from './api/api-client';
export { ApiError, isClientError, unwrap } from './api/api-error';
export {
  type CircuitBreaker,
  type CircuitBreakerOptions,
  type CircuitState,
  createCircuitBreaker,
} from './api/circuit-breaker';
export {
  browserDpopSigner,
  createDpopSigner,
  type DpopKeyStore,
  type DpopSigner,
  indexedDbKeyStore,
  memoryKeyStore,
  type NewKeyProof,
} from './auth/dpop';
export {
  createSession,
  REFRESH_LOCK_NAME,
  type RefreshLocks,
  type Session,
  type SessionDeps,
  type SessionResult,
  type SessionState,
  type SessionStatus,
} from './auth/session';
export { type ConfirmPassword, createStepUp, type StepUp, type StepUpSubmit } from './auth/step-up';
export { isAccessTokenExpiring, isRefreshTokenExpired, tokenExpiry } from './auth/token';
export {
  getRuntimeConfig,
  loadRuntimeConfig,
  provideRuntimeConfig,
  runtimeConfig$,
  whenRuntimeConfig,
} from './config/runtime-config';
export {
  BINANCE_FUTURES_HOSTS,
  type BrowserTestCredentials,
  type BrowserTestOutcome,
  hmacSha256Hex,
  testBinanceConnectionInBrowser,
} from './fallback/browser-signing';
export { runtimeInstanceId } from './instance';
export {
  type AccountChange,
  createLiveData,
  LIVE_SUBSCRIBE_DEBOUNCE_MS,
  type LiveData,
  type LiveDataDeps,
  type LiveStatus,
  type LiveWatch,
} from './live/live-data';
export {
  createKestrelRuntime,
  getKestrelRuntime,
  initKestrelRuntime,
  type KestrelRuntime,
  type KestrelRuntimeDeps,
  resetKestrelRuntimeForTests,
} from './runtime';
export {
  createSocketBus,
  SOCKET_UNAUTHORIZED_CLOSE,
  SocketAuthError,
  type SocketBus,
  type SocketBusDeps,
  SocketRequestError,
  type SocketStatus,
  type WebSocketFactory,
  type WebSocketLike,
} from './socket/socket-bus';
export { EXCHANGE_TOASTS, MESSAGES, SPEC } from './spec';
export {
  type ConnectionTester,
  type ConnectionTestOutcome,
  createConnectionTester,
} from './state/connection-tester';
export { EXCHANGE_CATALOGUE, type ExchangeCatalogueEntry } from './state/exchange-catalogue';
export {
  CONNECTION_STATUS_LABELS,
  type ConnectionStatus,
  type ConnectResult,
  type CredentialsForm,
  type CredentialsStore,
  createCredentialsStore,
  createExchangeState,
  type DisconnectResult,
  type ExchangeConnection,
  type ExchangeConnections,
  type ExchangeState,
  maskApiKey,
} from './state/exchange-state';
export {
  browserThemeDeps,
  createThemeStore,
  THEME_STORAGE_KEY,
  type Theme,
  type ThemeStore,
  type ThemeStoreDeps,
} from './state/theme';
export { createNotices, type Notices, type Notification, type ToastMessage } from './state/toast';
export {
  createTradingEnvironment,
  ENVIRONMENT_TOASTS,
  type EnvironmentHistoryEntry,
  type EnvironmentServer,
  type EnvironmentState,
  type TradingEnvironment,
  type TradingEnvironmentName,
} from './state/trading-environment';
export {
  createMemoryStorage,
  decodeBase64,
  encodeBase64,
  type KeyValueStorage,
  STORAGE_KEYS,
} from './storage/storage';
