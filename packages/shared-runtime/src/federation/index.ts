export {
  loadRemoteComponent,
  type RemoteComponent,
  type RemoteComponentLoader,
  registerRemotesFromConfig,
} from './remote-loader';
export { RemoteLoaderProvider, RemoteSlot, type RemoteSlotProps } from './remote-slot';
