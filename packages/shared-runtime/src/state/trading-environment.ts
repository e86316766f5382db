import {
  type EnvironmentStateResponse,
  type EnvironmentTarget,
  EXCHANGE_IDS,
  type ExchangeId,
} from '@kestrel/contracts';
import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import type { ApiResult } from '../api/api-client';
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
  /**
   * What the server reaches for the current environment (the badge: "Simulator", "Testnet", "LIVE mainnet");
   * absent until the server answered
   */
  target?: EnvironmentTarget;
  /** Both environments as the server reaches them (mainnet may be not configured, with the reason) */
  targets?: readonly EnvironmentTarget[];
  /** Why the server's answer could not be read (no target is shown then: the badge never guesses) */
  loadError?: string;
}

export interface TradingEnvironment {
  readonly state$: Observable<EnvironmentState>;
  readonly state: EnvironmentState;
  /** Toast data for each switch (spec §4: testnet is simulation, mainnet is LIVE and destructive) */
  readonly toasts$: Observable<ToastMessage>;
  /**
   * Switches and records the switch; switching to the current environment does nothing. With a server, the server
   * switches (mainnet asks for the password again through the API client's step-up prompt) and its answer becomes
   * the state; a refusal toasts the reason and changes nothing. Resolves whether the switch happened
   */
  switchTo(environment: TradingEnvironmentName, exchangeId?: ExchangeId | null): Promise<boolean>;
  /** Reads the state from the server (after sign-in, and whenever a page wants the truth again) */
  refresh(): Promise<void>;
}

/** The server's environment calls (issue 23: the server is the authority, this state is its cache) */
export interface EnvironmentServer {
  load(): Promise<ApiResult<EnvironmentStateResponse>>;
  switchTo(
    environment: TradingEnvironmentName,
    exchangeId: ExchangeId | null,
  ): Promise<ApiResult<EnvironmentStateResponse>>;
}

export interface TradingEnvironmentDeps {
  storage: KeyValueStorage;
  now?: () => number;
  /** The exchange recorded with each switch when the caller names none (the selected exchange) */
  currentExchange?: () => ExchangeId | null;
  /** The server's calls; without one (unit tests) the state is local */
  server?: EnvironmentServer;
}

const ENVIRONMENTS: readonly string[] = ['testnet', 'mainnet'] satisfies TradingEnvironmentName[];

function isEnvironment(value: unknown): value is TradingEnvironmentName {
  return typeof value === 'string' && ENVIRONMENTS.includes(value);
}

function isHistoryEntry(value: unknown): value is EnvironmentHistoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const { environment, timestamp, exchangeId } = value as Record<string, unknown>;
  return (
    isEnvironment(environment) &&
    typeof timestamp === 'number' &&
    (exchangeId === null || (EXCHANGE_IDS as readonly unknown[]).includes(exchangeId))
  );
}

/** The copy this runtime stored (without zod: it is read as the page starts); anything else is no copy */
function readStored(
  value: unknown,
): { currentEnvironment: TradingEnvironmentName; environmentHistory: EnvironmentHistoryEntry[] } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { currentEnvironment, environmentHistory = [] } = value as Record<string, unknown>;
  if (!isEnvironment(currentEnvironment)) return undefined;
  if (!Array.isArray(environmentHistory) || !environmentHistory.every(isHistoryEntry)) return undefined;
  return {
    currentEnvironment,
    environmentHistory: environmentHistory.map(({ environment, timestamp, exchangeId }) => ({
      environment,
      timestamp,
      exchangeId,
    })),
  };
}

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

const fromServer = (s: EnvironmentStateResponse): EnvironmentState => ({
  ...stateOf(s.currentEnvironment, s.environmentHistory.slice(-SPEC.environmentHistoryKept)),
  target: s.current,
  targets: s.targets,
});

/** The toast of a switch: the spec's words, with what the server really reaches (the simulator's demo funds) */
function toastFor(environment: TradingEnvironmentName, target: EnvironmentTarget | undefined): ToastMessage {
  const base = ENVIRONMENT_TOASTS[environment];
  if (target?.kind === 'simulator') {
    return {
      ...base,
      description: 'Simulation with fake funds on the built-in simulator: no real money is at risk.',
    };
  }
  return base;
}

/**
 * Testnet (default) or mainnet, with the last 10 switches (spec §4 "Trading environment"). The server holds the
 * truth (issue 23: it sends the user's calls to this environment's exchange); storage keeps a copy so the first
 * paint is not blank, replaced by the server's answer as soon as it comes
 */
export function createTradingEnvironment(deps: TradingEnvironmentDeps): TradingEnvironment {
  const now = deps.now ?? (() => Date.now());
  const stored = readStored(readJson(deps.storage, STORAGE_KEYS.tradingEnvironment));
  const initial = stored
    ? stateOf(stored.currentEnvironment, stored.environmentHistory.slice(-SPEC.environmentHistoryKept))
    : stateOf(SPEC.defaultEnvironment, []);
  const state = new BehaviorSubject<EnvironmentState>(initial);
  const toasts = new Subject<ToastMessage>();
  const cache = (next: EnvironmentState) => {
    deps.storage.setItem(
      STORAGE_KEYS.tradingEnvironment,
      JSON.stringify({
        currentEnvironment: next.currentEnvironment,
        environmentHistory: next.environmentHistory,
      }),
    );
    state.next(next);
  };
  const server = deps.server;

  return {
    state$: state.asObservable(),
    get state() {
      return state.getValue();
    },
    toasts$: toasts.asObservable(),
    async refresh() {
      if (!server) return;
      const result = await server.load();
      if (result.success) cache(fromServer(result.data));
      else if (!result.requiresLogin) state.next({ ...state.getValue(), loadError: result.error });
    },
    async switchTo(environment, exchangeId) {
      const current = state.getValue();
      if (current.currentEnvironment === environment) return false;
      if (server) {
        const result = await server.switchTo(environment, exchangeId ?? deps.currentExchange?.() ?? null);
        if (!result.success) {
          // The step-up prompt cancelled is no news; anything else says why the switch did not happen
          if (result.code !== 'STEP_UP_REQUIRED') {
            toasts.next({
              title: `Could not switch to ${environment === 'mainnet' ? 'Mainnet' : 'Testnet'}`,
              description: result.error,
              variant: 'destructive',
            });
          }
          return false;
        }
        const next = fromServer(result.data);
        cache(next);
        toasts.next(toastFor(environment, next.target));
        return true;
      }
      const entry: EnvironmentHistoryEntry = {
        environment,
        timestamp: now(),
        exchangeId: exchangeId ?? deps.currentExchange?.() ?? null,
      };
      const next = stateOf(
        environment,
        [...current.environmentHistory, entry].slice(-SPEC.environmentHistoryKept),
      );
      cache(next);
      toasts.next(ENVIRONMENT_TOASTS[environment]);
      return true;
    },
  };
}
