export { ConnectExchangeButton } from './connect-exchange-button';
export { fetchBuildInfo, useRemoteLoadRecords } from './platform';
export {
  loadRemoteComponent,
  type RemoteComponent,
  type RemoteComponentLoader,
  type RemoteLoadRecord,
  registeredRemoteEntries,
  registerRemotesFromConfig,
  remoteLoadRecords,
  subscribeRemoteLoadRecords,
} from './remote-loader';
export { RemoteLoaderProvider, RemoteSlot, type RemoteSlotProps } from './remote-slot';
export { RemoteIncompatibleError, SHARED_RUNTIME_VERSION, satisfiesRange } from './version-check';
