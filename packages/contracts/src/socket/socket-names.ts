// No zod here: the runtime's socket and live data read these names and limits as the page starts, before the
// contracts' schemas load

/** JSON-RPC 2.0 error codes the socket answers with (the spec's own numbers) */
export const JSON_RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/**
 * Client → server: which push streams this socket wants (`streams/subscribe`, a request with an id). The list
 * replaces the previous one; an empty list stops pushes. A new socket receives every stream until it sends one,
 * so a client that never subscribes still gets its pushes.
 *
 * `symbols` picks the symbols of the market pushes (ticker, markPrice), replacing the server's default watch list;
 * the symbols of the account's open positions are always added. Omitted: the list stays as it was.
 *
 * `candles` picks the (symbol, interval) pairs of the candle pushes, replacing the previous pairs (none at first).
 * Symbols the exchange does not list are refused (-32602) naming them, also as `error.data.unlisted` (a list).
 * Omitted: the pairs stay as they were.
 *
 * `books` picks the symbols whose order book and trades tape this socket receives (`book`, `trades`), replacing the
 * previous ones (none at first); unlisted symbols are refused as for `candles`. Omitted: they stay as they were.
 */
export const SOCKET_STREAMS = [
  'ticker',
  'markPrice',
  'order',
  'position',
  'balance',
  'bot',
  'backtest',
  'optimisation',
  'candle',
  'notification',
  'book',
  'trades',
] as const;
/** Most symbols one socket may watch at once */
export const MAX_WATCHED_SYMBOLS = 50;
/** Most (symbol, interval) candle streams one socket may watch at once */
export const MAX_WATCHED_CANDLES = 10;
/** Most order books (with their trades) one socket may watch at once */
export const MAX_WATCHED_BOOKS = 2;
/** Price levels per side an order book push carries, best first */
export const BOOK_PUSH_LEVELS = 50;
export const STREAMS_SUBSCRIBE_METHOD = 'streams/subscribe';

/**
 * Server pushes on the live socket. They are small notices (what changed, with ids and the few figures a ticker
 * shows), so pages invalidate their queries instead of keeping a second copy of the data. Decimals are strings.
 *
 * After the server lost its exchange stream for a while (events may be missing) it sends a balance notice with
 * asset `*` and a position notice with symbol `*` (`reason: "RESYNC"`): refetch everything of the account.
 */
export const RESYNC_WILDCARD = '*';
export const LIVE_EVENT_METHODS = {
  ticker: 'notifications/ticker',
  markPrice: 'notifications/mark_price',
  order: 'notifications/order',
  position: 'notifications/position',
  balance: 'notifications/balance',
  bot: 'notifications/bot',
  backtest: 'notifications/backtest',
  optimisation: 'notifications/optimisation',
  candle: 'notifications/candle',
  notification: 'notifications/notification',
  book: 'notifications/book',
  trades: 'notifications/trades',
} as const;
export type LiveEventKind = keyof typeof LIVE_EVENT_METHODS;
