/** Timing of the stream connections; Binance's rules by default, tests shorten them */
export interface BinanceStreamOptions {
  /** First reconnect delay; it doubles on every failed attempt up to `reconnectMaxMs` */
  reconnectInitialMs?: number;
  reconnectMaxMs?: number;
  /** We ping this often; a connection with no pong or message since the previous ping is dropped and reopened */
  heartbeatMs?: number;
  /**
   * Binance cuts every connection after 24 h: we reopen a little before, on our own schedule, and treat the
   * server's cut like any other close if it comes first
   */
  maxConnectionMs?: number;
  /** listenKey keepalive (PUT); Binance expires a key 60 min after the last one */
  keepAliveMs?: number;
  /** Control messages (SUBSCRIBE/UNSUBSCRIBE) per second; Binance allows 10 incoming messages per second */
  controlMessagesPerSecond?: number;
}

/** Binance's own limits, with margin */
export const STREAM_DEFAULTS: Required<BinanceStreamOptions> = {
  reconnectInitialMs: 500,
  reconnectMaxMs: 30_000,
  heartbeatMs: 30_000,
  maxConnectionMs: 23 * 60 * 60_000,
  keepAliveMs: 50 * 60_000,
  controlMessagesPerSecond: 5,
};
