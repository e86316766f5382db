import type { ExchangeId } from '@kestrel/contracts';
import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import { z } from 'zod';
import { SPEC } from '../spec';
import { type KeyValueStorage, readJson, STORAGE_KEYS } from '../storage/storage';
import type { ToastMessage } from './toast';

export type TradingEnvironmentName = 'testnet' | 'mainnet';

export interface EnvironmentHistoryEntry {
  environment: TradingEnvironmentName;
  timestamp: number;
  exchangeId: ExchangeId | null;
}

/** Environment state (spec §3) */
export interface EnvironmentState {
  currentEnvironment: TradingEnvironmentName;
  isTestnetMode: boolean;
  /** Oldest first, at most the last 10 switches */
  environmentHistory: readonly EnvironmentHistoryEntry[];
}

export interface TradingEnvironment {
  readonly state$: Observable<EnvironmentState>;
  readonly state: EnvironmentState;
  /** Toast data for each switch (spec §4: testnet is simulation, mainnet is LIVE and destructive) */
  readonly toasts$: Observable<ToastMessage>;
  /** Switches and records the switch; switching to the current environment does nothing */
  switchTo(environment: TradingEnvironmentName, exchangeId?: ExchangeId | null): void;
}

export interface TradingEnvironmentDeps {
  storage: KeyValueStorage;
  now?: () => number;
  /** The exchange recorded with each switch when the caller names none (the selected exchange) */
  currentExchange?: () => ExchangeId | null;
}

const StoredSchema = z.object({
  currentEnvironment: z.enum(['testnet', 'mainnet']),
  environmentHistory: z
    .array(
      z.object({
        environment: z.enum(['testnet', 'mainnet']),
        timestamp: z.number(),
        exchangeId: z.enum(['binance', 'coinbase', 'kraken', 'bybit']).nullable(),
      }),
    )
    .default([]),
});

export const ENVIRONMENT_TOASTS: Record<TradingEnvironmentName, ToastMessage> = {
  testnet: {
    title: 'Switched to Testnet',
    description: 'Simulation with fake funds: no real money is at risk.',
    variant: 'default',
  },
  mainnet: {
    title: 'Switched to Mainnet',
    description: 'LIVE trading with real money: orders are real.',
    variant: 'destructive',
  },
};

const stateOf = (
  currentEnvironment: TradingEnvironmentName,
  environmentHistory: readonly EnvironmentHistoryEntry[],
): EnvironmentState => ({
  currentEnvironment,
  isTestnetMode: currentEnvironment === 'testnet',
  environmentHistory,
});

/** Testnet (default) or mainnet, with the last 10 switches, persisted (spec §4 "Trading environment") */
export function createTradingEnvironment(deps: TradingEnvironmentDeps): TradingEnvironment {
  const now = deps.now ?? (() => Date.now());
  const stored = StoredSchema.safeParse(readJson(deps.storage, STORAGE_KEYS.tradingEnvironment));
  const initial = stored.success
    ? stateOf(
        stored.data.currentEnvironment,
        stored.data.environmentHistory.slice(-SPEC.environmentHistoryKept),
      )
    : stateOf(SPEC.defaultEnvironment, []);
  const state = new BehaviorSubject<EnvironmentState>(initial);
  const toasts = new Subject<ToastMessage>();

  return {
    state$: state.asObservable(),
    get state() {
      return state.getValue();
    },
    toasts$: toasts.asObservable(),
    switchTo(environment, exchangeId) {
      const current = state.getValue();
      if (current.currentEnvironment === environment) return;
      const entry: EnvironmentHistoryEntry = {
        environment,
        timestamp: now(),
        exchangeId: exchangeId ?? deps.currentExchange?.() ?? null,
      };
      const next = stateOf(
        environment,
        [...current.environmentHistory, entry].slice(-SPEC.environmentHistoryKept),
      );
      deps.storage.setItem(
        STORAGE_KEYS.tradingEnvironment,
        JSON.stringify({
          currentEnvironment: next.currentEnvironment,
          environmentHistory: next.environmentHistory,
        }),
      );
      state.next(next);
      toasts.next(ENVIRONMENT_TOASTS[environment]);
    },
  };
}
