import type { LiveEventKind, LiveEventNotice } from '@kestrel/contracts';
import { createContext, type ReactNode, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { CircuitState } from '../api/circuit-breaker';
import type { SessionState } from '../auth/session';
import { getKestrelRuntime, type KestrelRuntime } from '../runtime';
import type { SocketStatus } from '../socket/socket-bus';
import type { ExchangeConnections } from '../state/exchange-state';
import type { Theme } from '../state/theme';
import type { EnvironmentState } from '../state/trading-environment';
import { useObservable } from './use-observable';

const KestrelRuntimeContext = createContext<KestrelRuntime | null>(null);

/** Optional: pins a runtime for a subtree (tests, a remote's standalone page); otherwise the page singleton is used */
export function KestrelRuntimeProvider({
  runtime,
  children,
}: {
  runtime: KestrelRuntime;
  children?: ReactNode;
}) {
  return <KestrelRuntimeContext.Provider value={runtime}>{children}</KestrelRuntimeContext.Provider>;
}

/** The runtime from the nearest provider, else the page's singleton */
export function useKestrelRuntime(): KestrelRuntime {
  return useContext(KestrelRuntimeContext) ?? getKestrelRuntime();
}

export function useSession(): SessionState {
  const { session } = useKestrelRuntime();
  return useObservable(session.state$, session.state);
}

export function useExchangeConnections(): ExchangeConnections {
  const { exchanges } = useKestrelRuntime();
  return useObservable(exchanges.connections$, exchanges.connections);
}

export function useSelectedExchange() {
  const { exchanges } = useKestrelRuntime();
  return useObservable(exchanges.selectedExchange$, exchanges.selectedExchange);
}

/** True while the exchange state syncs with the server ("Initializing exchanges...") */
export function useExchangesLoading(): boolean {
  const { exchanges } = useKestrelRuntime();
  return useObservable(exchanges.loading$, false);
}

export function useTradingEnvironment(): EnvironmentState {
  const { environment } = useKestrelRuntime();
  return useObservable(environment.state$, environment.state);
}

/** The page's theme and how to change it (the same store as the shell's top-bar toggle); re-renders on each change */
export function useTheme(): { theme: Theme; toggle: () => void; set: (theme: Theme) => void } {
  const { theme: store } = useKestrelRuntime();
  const theme = useSyncExternalStore(store.subscribe, store.get, store.get);
  return { theme, toggle: store.toggle, set: store.set };
}

export function useSocketStatus(): SocketStatus {
  const { bus } = useKestrelRuntime();
  return useObservable(bus.status$, bus.status);
}

export function useCircuitState(): CircuitState {
  const { breaker } = useKestrelRuntime();
  return useObservable(breaker.state$, breaker.state);
}

/**
 * Calls `onEvent` for each server push of one kind, e.g. to invalidate a query:
 * `useLiveEvent('order', () => queryClient.invalidateQueries({ queryKey: ordersKeys.all }))`
 */
export function useLiveEvent<K extends LiveEventKind>(
  kind: K,
  onEvent: (event: LiveEventNotice[K]) => void,
): void {
  const { bus } = useKestrelRuntime();
  // Keep the latest handler without resubscribing on every render
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const subscription = bus.events$(kind).subscribe((event) => handler.current(event));
    return () => subscription.unsubscribe();
  }, [bus, kind]);
}
