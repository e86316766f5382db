/**
 * Every message and constant the product spec fixes (§5, §8, §9), in one place so a drift is one diff.
 * Tests assert the literal texts, not these names, so changing a value here fails them.
 */

/** §9 business constants */
export const SPEC = {
  accessTokenExpiryMarginMs: 30_000,
  apiRequestTimeoutMs: 30_000,
  circuitBreakerFailureThreshold: 5,
  circuitBreakerRecoveryMs: 30_000,
  socketMaxReconnectAttempts: 5,
  socketReconnectDelayUnitMs: 1_000,
  socketConnectWaitMs: 3_000,
  socketRequestTimeoutMs: 10_000,
  environmentHistoryKept: 10,
  defaultEnvironment: 'testnet',
  defaultCredentialsRegion: 'global',
  queryStaleTimeMs: 5 * 60_000,
  queryCacheTimeMs: 10 * 60_000,
  queryRefetchIntervalMs: 5 * 60_000,
  queryMaxRetries: 2,
  queryRetryDelayCapMs: 30_000,
  mutationRetries: 1,
} as const;

/** §8 error catalogue and §5 validation messages */
export const MESSAGES = {
  signUpNetworkFailure: 'Network error. Please check your connection and try again.',
  signInServiceUnavailable: 'Service temporarily unavailable (503). Please try again shortly.',
  signInInvalidCredentials: 'Invalid email or password.',
  signInOtherStatus: (status: number, text: string) => `Authentication failed: ${status} ${text}.`,
  signInUnreadableBody: 'Unable to parse server response.',
  signInFetchFailure:
    'Cannot reach the server. This is usually caused by CORS settings, an ad blocker, a VPN or firewall, or the API being down.',
  signInFallback: 'Unable to sign in. Please check your credentials and try again.',
  signUpFallback: 'Unable to sign up. Please check your details and try again.',
  noRefreshToken: 'No refresh token available',
  refreshTokenExpired: 'Refresh token expired. Please sign in again.',
  refreshTokenInvalid: 'Refresh token invalid. Please sign in again.',
  noAuthToken: 'No authentication token available',
  authExpired: 'Authentication expired. Please sign in again.',
  loggedOutLocally: 'Logged out locally.',
  httpStatus: (status: number, text: string) => `HTTP ${status}: ${text}`,
  connectionFailed: (host: string) => `Connection failed to ${host}. Please check if the backend is running.`,
  circuitOpen: 'Circuit breaker is OPEN - API calls are temporarily blocked.',
  socketNotConnected: 'Not connected to MCP server',
  socketRequestTimeout: 'Request timeout',
  credentialsRequired: 'API Key and Secret Key are required',
  exchangeNotSupported: 'Exchange not supported yet',
  exchangeNotAvailableTitle: 'Exchange Not Available',
  exchangeNotAvailableText: 'This exchange is not yet supported',
  apiKeyRequired: 'API Key is required',
  secretKeyRequired: 'Secret Key is required',
  testnetNoLongerSupported: 'Testnet credentials are no longer supported. Please use mainnet credentials.',
  // Not in the spec: the contracts' schemas load on first use (lazy-contracts.ts), and that load can fail
  contractsUnavailable: "Part of the app's code could not be loaded. Reload the page to try again.",
} as const;

/** §8 exchange toasts */
export const EXCHANGE_TOASTS = {
  connectedTitle: 'Exchange Connected',
  connectedText: (name: string) => `Successfully connected to ${name}`,
  failedTitle: 'Connection Failed',
  binanceConnectivityTitle: 'Binance Connectivity Failed',
  binanceConnectivityText: 'Binance connectivity failed for provided keys. Please check and re-submit.',
  errorTitle: 'Connection Error',
  disconnectedTitle: 'Exchange Disconnected',
  connectivityCheckFailed: 'Failed to check connectivity',
  connectivityNetworkError: 'Network error',
  connectivityNotSupported: 'Exchange not supported',
} as const;
