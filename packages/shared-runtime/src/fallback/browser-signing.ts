import type { AccountTestResult } from '@kestrel/contracts';
import { MESSAGES } from '../spec';

/** Binance USDⓈ-M REST hosts the browser fallback calls directly */
export const BINANCE_FUTURES_HOSTS = {
  mainnet: 'https://fapi.binance.com',
  testnet: 'https://demo-fapi.binance.com',
} as const;

/** Binance's default acceptance window for signed requests */
const RECV_WINDOW_MS = 5_000;

export interface BrowserTestCredentials {
  apiKey: string;
  secretKey: string;
  testnet: boolean;
}

export type BrowserTestOutcome =
  | { success: true; data: AccountTestResult }
  | { success: false; error: string };

export interface BrowserSigningDeps {
  fetch?: typeof fetch;
  now?: () => number;
  /** Override the exchange host (tests point it at a loopback server) */
  baseUrl?: (testnet: boolean) => string;
}

const toHex = (buffer: ArrayBuffer) =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * hex(HMAC-SHA256(secret, payload)) with WebCrypto, as Binance signs requests. The key is imported as
 * non-extractable and lives only for this call, so the secret is never kept anywhere after it returns.
 */
export async function hmacSha256Hex(secret: string, payload: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return toHex(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(payload)));
}

function exchangeMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'msg' in body && typeof body.msg === 'string') {
    const code = 'code' in body ? ` (code ${String(body.code)})` : '';
    return `${body.msg}${code}`;
  }
  return undefined;
}

/**
 * Spec §7 "Fallback": when the live socket is unavailable during a connection test, the browser checks the
 * exchange itself: ping, server time (to sign with the exchange's clock, not a drifting local one), then the
 * signed futures account request with the key in the `X-MBX-APIKEY` header.
 *
 * Every failure says "connectivity" so the form shows the Binance Connectivity Failed toast (spec §8).
 */
export async function testBinanceConnectionInBrowser(
  credentials: BrowserTestCredentials,
  deps: BrowserSigningDeps = {},
): Promise<BrowserTestOutcome> {
  if (!credentials.apiKey || !credentials.secretKey)
    return { success: false, error: MESSAGES.credentialsRequired };
  const fetchImpl = deps.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const now = deps.now ?? (() => Date.now());
  const base = (
    deps.baseUrl?.(credentials.testnet) ?? BINANCE_FUTURES_HOSTS[credentials.testnet ? 'testnet' : 'mainnet']
  ).replace(/\/+$/, '');
  const failed = (reason: string): BrowserTestOutcome => ({
    success: false,
    error: `Binance connectivity failed: ${reason}`,
  });

  const getJson = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetchImpl(`${base}${path}`, { headers });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { ok: response.ok, status: response.status, body };
  };

  try {
    const ping = await getJson('/fapi/v1/ping');
    if (!ping.ok) return failed(`ping answered HTTP ${ping.status}`);

    const time = await getJson('/fapi/v1/time');
    const serverTime =
      time.body && typeof time.body === 'object' && 'serverTime' in time.body
        ? Number(time.body.serverTime)
        : NaN;
    if (!time.ok || !Number.isFinite(serverTime)) return failed('the server time is unavailable');
    const offset = serverTime - now();

    const query = `timestamp=${Math.round(now() + offset)}&recvWindow=${RECV_WINDOW_MS}`;
    const signature = await hmacSha256Hex(credentials.secretKey, query);
    const account = await getJson(`/fapi/v3/account?${query}&signature=${signature}`, {
      'X-MBX-APIKEY': credentials.apiKey,
    });
    if (!account.ok)
      return failed(exchangeMessage(account.body) ?? `account request answered HTTP ${account.status}`);
    return { success: true, data: toAccountTestResult(account.body) };
  } catch {
    // The exchange is unreachable from this browser (offline, blocked by CORS or a firewall)
    return failed('the exchange could not be reached from this browser');
  }
}

/** Maps Binance's futures account body to the spec's account test result data */
export function toAccountTestResult(body: unknown): AccountTestResult {
  const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : '0');
  // Binance's v3 account body no longer carries these flags; absent means "not confirmed", shown as false
  const flag = (key: string) => record[key] === true;
  const assets = Array.isArray(record.assets) ? record.assets : [];
  const positions = Array.isArray(record.positions) ? record.positions : [];
  return {
    accountType: typeof record.accountType === 'string' ? record.accountType : 'USDT_FUTURES',
    totalWalletBalance: text('totalWalletBalance'),
    totalUnrealizedProfit: text('totalUnrealizedProfit'),
    totalMarginBalance: text('totalMarginBalance'),
    canTrade: flag('canTrade'),
    canWithdraw: flag('canWithdraw'),
    canDeposit: flag('canDeposit'),
    assetsCount: assets.length,
    positionsCount: positions.filter(
      (p) => p && typeof p === 'object' && 'positionAmt' in p && Number(p.positionAmt) !== 0,
    ).length,
  };
}
