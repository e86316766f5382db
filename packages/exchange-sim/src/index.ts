export { type Clock, ManualClock, systemClock } from './common/clock';
export { BinanceError, ErrorCode } from './common/errors';
export {
  type Bracket,
  buildBrackets,
  DEFAULT_SYMBOLS,
  KNOWN_SYMBOLS,
  resolveSymbols,
  type SymbolSpec,
} from './common/symbols';
export type { FaultInput, FaultKind, FaultRule } from './http/faults';
export type { RateLimitOptions } from './http/rate-limit';
export { type Listening, SimServer, type SimServerOptions } from './http/server';
export type { CreateAccountInput } from './matching/accounts';
export type { UserEvent } from './matching/events';
export { Exchange, type ExchangeOptions } from './matching/exchange';
// The exchange's own order filters, for tests that hold another component's checks to them
export { checkNotional, checkPriceFilter, checkQuantity } from './matching/filters';
export { barOpen, INTERVALS, type Interval, nextBarOpen } from './matching/klines';
export { liquidationPrice } from './matching/margin';
export {
  type PriceCommand,
  PriceCommandError,
  type PriceControlState,
  type PriceMode,
  type PricePoint,
} from './matching/price-control';
export { GeneratedFeed, type MinuteBar, type PriceSource } from './matching/price-feed';
export { type ReplayBar, ReplayFeed } from './matching/replay-feed';
// The ids and trades the market streams and REST share, for tests that check a client joins them right
export { type AggTrade, aggTradeAt, aggTradeId, bookUpdateId } from './matching/tape';
export type { Account, KeyPermissions } from './matching/types';
export { DEPTH_STREAM_LEVELS, type DepthUpdateEvent, type LevelRow } from './ws/depth-stream';
export { LIFETIME_CLOSE, type StreamServerOptions } from './ws/server';
