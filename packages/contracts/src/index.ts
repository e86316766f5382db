export {
  type AuthResponse,
  AuthResponseSchema,
  ErrorBodySchema,
  type RefreshResponse,
  RefreshResponseSchema,
  type SignInRequest,
  SignInRequestSchema,
  type User,
  UserSchema,
} from './auth/session';
export {
  type AccountTestResult,
  AccountTestResultSchema,
  type BinanceCredentialsPayload,
  BinanceCredentialsPayloadSchema,
  type ConnectionTestReply,
  ConnectionTestReplySchema,
  type CredentialsStatusResponse,
  CredentialsStatusResponseSchema,
  type ExchangeId,
  ExchangeIdSchema,
} from './exchange/connection-test';
export { type Health, HealthSchema } from './health';
export {
  type RemoteName,
  RemoteNameSchema,
  type RuntimeConfig,
  type RuntimeConfigInput,
  RuntimeConfigSchema,
} from './runtime-config';
export {
  type JsonRpcNotification,
  JsonRpcNotificationSchema,
  type JsonRpcReply,
  JsonRpcReplySchema,
  type SocketToolName,
  SocketToolNameSchema,
  type ToolCallRequest,
  ToolCallRequestSchema,
} from './socket/json-rpc';
export {
  type BalanceNotice,
  BalanceNoticeSchema,
  type BotNotice,
  BotNoticeSchema,
  LIVE_EVENT_METHODS,
  LIVE_EVENT_SCHEMAS,
  type LiveEventKind,
  type LiveEventNotice,
  type MarkPriceNotice,
  MarkPriceNoticeSchema,
  type OrderNotice,
  OrderNoticeSchema,
  type PositionNotice,
  PositionNoticeSchema,
  type TickerNotice,
  TickerNoticeSchema,
} from './socket/live-events';
