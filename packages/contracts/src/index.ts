export {
  type AuthResponse,
  AuthResponseSchema,
  type MeResponse,
  MeResponseSchema,
  type RefreshRequest,
  RefreshRequestSchema,
  type SigninRequest,
  SigninRequestSchema,
  type SignupRequest,
  SignupRequestSchema,
} from './auth/auth';
export {
  type Session,
  type SessionListResponse,
  SessionListResponseSchema,
  type SessionParams,
  SessionParamsSchema,
  SessionSchema,
} from './auth/session';
export {
  EMAIL_MAX_LENGTH,
  EmailSchema,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PasswordSchema,
  type User,
  UserSchema,
} from './auth/user';
export {
  type ErrorIssue,
  ErrorIssueSchema,
  type ErrorResponse,
  ErrorResponseSchema,
  type MessageResponse,
  MessageResponseSchema,
} from './common/error-response';
export {
  type AccountTestResponse,
  AccountTestResponseSchema,
  type AccountTestResult,
  AccountTestResultSchema,
  BINANCE_REGIONS,
  type BinanceCredentials,
  type BinanceCredentialsResponse,
  BinanceCredentialsResponseSchema,
  BinanceCredentialsSchema,
  type BinanceRegion,
  BinanceRegionSchema,
  CONNECTIVITY_STATUSES,
  type ConnectivityStatus,
  ConnectivityStatusSchema,
  CREDENTIAL_MAX_LENGTH,
  type CreateBinanceCredentials,
  type CreateBinanceCredentialsInput,
  CreateBinanceCredentialsSchema,
  type CredentialsStatusResponse,
  CredentialsStatusResponseSchema,
  type ExchangeParams,
  ExchangeParamsSchema,
  TestConnectionRequestSchema,
} from './credentials/binance-credentials';
export { type DatabaseHealth, DatabaseHealthSchema } from './database/database-health';
export { type Health, HealthSchema } from './health';
export {
  type RemoteName,
  RemoteNameSchema,
  type RuntimeConfig,
  type RuntimeConfigInput,
  RuntimeConfigSchema,
} from './runtime-config';
