/**
 * What a fapi request costs before it is sent: its IP request weight (Binance's documented table, the same the
 * simulator enforces), whether it counts against the account's order limits, and which lane of the weight budget
 * it belongs to. The budget (`weight-budget.ts`) admits a request by these figures; the exchange's
 * `X-MBX-USED-WEIGHT-1M` answer then corrects the running total.
 */

export type Params = Record<string, string | number | boolean | undefined>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const bySymbol = (one: number, all: number) => (p: Params) => (p.symbol === undefined ? all : one);

/** Klines, by page size (Binance: [1,100) 1, [100,500) 2, [500,1000] 5, above 10; 500 when not given) */
export function klinesWeight(limit: number): number {
  if (limit < 100) return 1;
  if (limit < 500) return 2;
  if (limit <= 1000) return 5;
  return 10;
}

const WEIGHTS: Record<string, number | ((p: Params) => number)> = {
  'GET /fapi/v1/ping': 1,
  'GET /fapi/v1/time': 1,
  'GET /fapi/v1/exchangeInfo': 1,
  'GET /fapi/v1/ticker/24hr': bySymbol(1, 40),
  'GET /fapi/v1/ticker/bookTicker': bySymbol(2, 5),
  'GET /fapi/v2/ticker/price': bySymbol(1, 2),
  'GET /fapi/v1/premiumIndex': bySymbol(1, 10),
  'GET /fapi/v1/klines': (p) => klinesWeight(Number(p.limit ?? 500)),
  'GET /fapi/v1/fundingRate': 1,
  // Binance: limit 5-50 → 2, 100 → 5, 500 → 10, 1000 → 20 (500 when not given)
  'GET /fapi/v1/depth': (p) => {
    const l = Number(p.limit ?? 500);
    return l <= 50 ? 2 : l <= 100 ? 5 : l <= 500 ? 10 : 20;
  },
  'GET /fapi/v1/aggTrades': 20,
  'GET /fapi/v3/account': 5,
  'GET /fapi/v3/balance': 5,
  'GET /fapi/v3/positionRisk': 5,
  'GET /fapi/v1/leverageBracket': 1,
  'GET /fapi/v1/accountConfig': 5,
  'GET /fapi/v1/symbolConfig': 5,
  'GET /fapi/v1/positionSide/dual': 30,
  'GET /fapi/v1/income': 30,
  'GET /fapi/v1/openOrders': bySymbol(1, 40),
  'GET /fapi/v1/openAlgoOrders': bySymbol(1, 40),
  'GET /fapi/v1/allOrders': 5,
  'GET /fapi/v1/allAlgoOrders': 5,
  'GET /fapi/v1/userTrades': 5,
  'GET /fapi/v1/order': 1,
  'GET /fapi/v1/algoOrder': 1,
  'POST /fapi/v1/order': 0,
  'POST /fapi/v1/algoOrder': 0,
  'DELETE /fapi/v1/order': 1,
  'DELETE /fapi/v1/algoOrder': 1,
  'DELETE /fapi/v1/allOpenOrders': 1,
  'POST /fapi/v1/leverage': 1,
};

/** IP request weight of one call; 1 for a call the table does not know (Binance's most common weight) */
export function requestWeight(method: Method, path: string, params: Params): number {
  const w = WEIGHTS[`${method} ${path}`];
  if (w === undefined) return 1;
  return typeof w === 'function' ? w(params) : w;
}

/** Calls Binance counts against the account's ORDERS limits (300 / 10 s, 1200 / min) */
export function countsAsOrder(method: Method, path: string): boolean {
  return method === 'POST' && (path === '/fapi/v1/order' || path === '/fapi/v1/algoOrder');
}

/**
 * Calls that change or settle the account's orders and positions, and the cheap reads they cannot do without
 * (looking up an order whose answer was lost, the clock sync a signed call needs, the user-data stream's key).
 * They go in the reserved trading lane: market data never starves them
 */
export function isTradingCall(method: Method, path: string): boolean {
  if (path === '/fapi/v1/order' || path === '/fapi/v1/algoOrder') return true;
  if (path === '/fapi/v1/time' || path === '/fapi/v1/listenKey') return true;
  return method !== 'GET' && (path === '/fapi/v1/allOpenOrders' || path === '/fapi/v1/leverage');
}

/** Endpoints whose every non-GET call withdraws orders: cancels, and the dead-man switch's countdown */
const WITHDRAWING = new Set([
  '/fapi/v1/order',
  '/fapi/v1/allOpenOrders',
  '/fapi/v1/batchOrders',
  '/fapi/v1/algoOrder',
  '/fapi/v1/algoOpenOrders',
]);

/**
 * Calls that take risk off: a cancel, the countdown that cancels for a silent server, and an order that can only
 * reduce a position (reduce-only, close-position). The circuit breaker tries them even while open
 */
export function isProtectiveCall(method: Method, path: string, params: Params): boolean {
  if (method === 'DELETE') return WITHDRAWING.has(path);
  if (method === 'POST' && path === '/fapi/v1/countdownCancelAll') return true;
  if (method === 'POST' && (path === '/fapi/v1/order' || path === '/fapi/v1/algoOrder'))
    return String(params.reduceOnly) === 'true' || String(params.closePosition) === 'true';
  return false;
}
