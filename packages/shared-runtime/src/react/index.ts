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
  useTheme,
  useTradingEnvironment,
} from './hooks';
export { useLiveCandles, useLiveMarkPrices, useLiveStatus, useLiveTickers } from './live-hooks';
export { RemotePage, type RemotePageProps } from './remote-page';
export { useObservable } from './use-observable';
