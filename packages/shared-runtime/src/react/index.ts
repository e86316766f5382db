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
export {
  useLiveBook,
  useLiveCandles,
  useLiveMarkPrices,
  useLiveStatus,
  useLiveTickers,
  useLiveTrades,
} from './live-hooks';
export { RemotePage, type RemotePageProps } from './remote-page';
export { useObservable } from './use-observable';
