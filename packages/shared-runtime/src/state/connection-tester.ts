import type { AccountTestResult } from '@kestrel/contracts';
import {
  type BrowserTestCredentials,
  type BrowserTestOutcome,
  testBinanceConnectionInBrowser,
} from '../fallback/browser-signing';
import type { SocketBus } from '../socket/socket-bus';
import { MESSAGES } from '../spec';

export type ConnectionTestOutcome =
  | { success: true; data: AccountTestResult | undefined; via: 'socket' | 'browser' }
  | { success: false; error: string; via: 'socket' | 'browser' };

/** Tests exchange keys: through the live socket's test_binance_connection tool, else in the browser (spec §7) */
export interface ConnectionTester {
  test(credentials: BrowserTestCredentials): Promise<ConnectionTestOutcome>;
}

export interface ConnectionTesterDeps {
  bus: Pick<SocketBus, 'callTool'>;
  /** The browser fallback; replaceable in tests */
  fallback?: (credentials: BrowserTestCredentials) => Promise<BrowserTestOutcome>;
}

export function createConnectionTester(deps: ConnectionTesterDeps): ConnectionTester {
  const fallback = deps.fallback ?? ((c: BrowserTestCredentials) => testBinanceConnectionInBrowser(c));
  return {
    async test(credentials) {
      if (!credentials.apiKey || !credentials.secretKey) {
        return { success: false, error: MESSAGES.credentialsRequired, via: 'socket' };
      }
      try {
        const reply = await deps.bus.callTool(
          'test_binance_connection',
          { api_key: credentials.apiKey, secret_key: credentials.secretKey, testnet: credentials.testnet },
          (c) => c.ConnectionTestReplySchema,
        );
        if (reply.success) return { success: true, data: reply.data, via: 'socket' };
        return {
          success: false,
          error: reply.error ?? reply.message ?? 'Binance connectivity failed',
          via: 'socket',
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Only an unavailable socket falls back; a timeout or a tool error is the server's answer
        if (message !== MESSAGES.socketNotConnected) return { success: false, error: message, via: 'socket' };
        const outcome = await fallback(credentials);
        return outcome.success
          ? { success: true, data: outcome.data, via: 'browser' }
          : { success: false, error: outcome.error, via: 'browser' };
      }
    },
  };
}
