export {
  getRuntimeConfig,
  loadRuntimeConfig,
  provideRuntimeConfig,
  runtimeConfig$,
  whenRuntimeConfig,
} from './config/runtime-config';
export { runtimeInstanceId } from './instance';
