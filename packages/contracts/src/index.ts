export { type Health, HealthSchema } from './health';
export {
  type RemoteName,
  RemoteNameSchema,
  type RuntimeConfig,
  type RuntimeConfigInput,
  RuntimeConfigSchema,
} from './runtime-config';
