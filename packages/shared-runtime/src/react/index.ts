export {
  KestrelRuntimeProvider,
  useCircuitState,
  useExchangeConnections,
  useExchangesLoading,
  useKestrelRuntime,
  useLiveEvent,
  useSelectedExchange,
  useSession,
  useSocketStatus,
  useTradingEnvironment,
} from './hooks';
export { createQueryClient, queryRetryDelay, shouldRetryQuery } from './query-client';
export { useObservable } from './use-observable';
