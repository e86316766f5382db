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
export { RemotePage, type RemotePageProps } from './remote-page';
export { useObservable } from './use-observable';
