import type {
  AccountTestResponse,
  CreateBinanceCredentialsInput,
  CredentialsStatusResponse,
} from '@kestrel/contracts';
import { RuntimeConfigSchema } from '@kestrel/contracts';
import {
  type ApiResult,
  type CredentialsStore,
  createExchangeState,
  createKestrelRuntime,
  createMemoryStorage,
  type KestrelRuntime,
  type ToastMessage,
} from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

export const TEST_CONFIG = RuntimeConfigSchema.parse({
  apiBaseUrl: 'https://api.kestrel.test',
  socketBaseUrl: 'wss://api.kestrel.test/ws',
  remotes: {
    dashboard: 'https://dashboard.kestrel.test/mf-manifest.json',
    bots: 'https://bots.kestrel.test/mf-manifest.json',
    exchange_connect: 'https://exchange.kestrel.test/mf-manifest.json',
    account: 'https://account.kestrel.test/mf-manifest.json',
  },
});

export const ACCOUNT: AccountTestResponse = {
  success: true,
  data: {
    accountType: 'USDT_FUTURES',
    totalWalletBalance: '10000',
    totalUnrealizedProfit: '0',
    totalMarginBalance: '10000',
    canTrade: true,
    canWithdraw: false,
    canDeposit: true,
    assetsCount: 1,
    positionsCount: 0,
  },
  message: 'Binance connectivity OK',
};

type Validate = (payload: CreateBinanceCredentialsInput) => Promise<ApiResult<AccountTestResponse>>;
type Status = () => Promise<ApiResult<CredentialsStatusResponse>>;

/**
 * The credentials store seam of the exchange state, kept in memory: the UI tests drive outcomes (and fake timers)
 * without a server. The same flows against the real server and simulator: server.test.tsx and the e2e suite.
 */
export function memoryCredentialsStore(
  validate: Validate = async () => ({ success: true, data: ACCOUNT }),
  status: Status = async () => ({ success: false, error: 'HTTP 500: Internal Server Error', status: 500 }),
) {
  const calls: string[] = [];
  let stored: CreateBinanceCredentialsInput | null = null;
  const store: CredentialsStore = {
    async validate(payload) {
      calls.push('validate');
      return validate(payload);
    },
    async save(payload) {
      calls.push('save');
      stored = payload;
      return { success: true };
    },
    async remove() {
      calls.push('remove');
      stored = null;
      return { success: true, data: { success: true, message: 'Binance credentials deleted' } };
    },
    status,
    async load() {
      return { success: false, error: 'not used', status: 404 };
    },
  };
  return { store, calls, stored: () => stored };
}

/** A runtime as the shell builds it, with the exchange state over `store`, and the toasts it emits */
export function testRuntime(store: CredentialsStore, now = () => Date.UTC(2026, 1, 3, 14, 30)) {
  const storage = createMemoryStorage();
  const base = createKestrelRuntime(TEST_CONFIG, { storage });
  const exchanges = createExchangeState({ storage, credentials: store, now });
  const runtime: KestrelRuntime = { ...base, exchanges };
  const toasts: ToastMessage[] = [];
  exchanges.toasts$.subscribe((t) => toasts.push(t));
  // As the shell's pages: the remote's server reads go through TanStack Query
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <KestrelRuntimeProvider runtime={runtime}>{children}</KestrelRuntimeProvider>
    </QueryClientProvider>
  );
  return { runtime, storage, toasts, wrap };
}
