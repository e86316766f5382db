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
export { useObservable } from './use-observable';
