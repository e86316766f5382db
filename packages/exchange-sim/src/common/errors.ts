/** Binance USDⓈ-M error codes the simulator emits, with Binance's own names */
export enum ErrorCode {
  UNKNOWN = -1000,
  TOO_MANY_REQUESTS = -1003,
  SERVER_BUSY = -1008,
  TIMEOUT = -1007,
  TOO_MANY_ORDERS = -1015,
  INVALID_TIMESTAMP = -1021,
  INVALID_SIGNATURE = -1022,
  ILLEGAL_CHARS = -1100,
  MANDATORY_PARAM_EMPTY_OR_MALFORMED = -1102,
  PARAM_NOT_REQUIRED = -1106,
  BAD_PRECISION = -1111,
  INVALID_TIF = -1115,
  INVALID_ORDER_TYPE = -1116,
  INVALID_SIDE = -1117,
  BAD_INTERVAL = -1120,
  BAD_SYMBOL = -1121,
  INVALID_LISTEN_KEY = -1125,
  MORE_THAN_XX_HOURS = -1127,
  INVALID_PARAMETER = -1130,
  CANCEL_REJECTED = -2011,
  NO_SUCH_ORDER = -2013,
  BAD_API_KEY_FMT = -2014,
  REJECTED_MBX_KEY = -2015,
  MARGIN_NOT_SUFFICIENT = -2019,
  ORDER_WOULD_IMMEDIATELY_TRIGGER = -2021,
  REDUCE_ONLY_REJECT = -2022,
  MAX_POSITION_EXCEEDED = -2027,
  QTY_LESS_THAN_ZERO = -4003,
  QTY_LESS_THAN_MIN_QTY = -4004,
  QTY_GREATER_THAN_MAX_QTY = -4005,
  PRICE_LESS_THAN_MIN_PRICE = -4013,
  PRICE_NOT_INCREASED_BY_TICK_SIZE = -4014,
  INVALID_CL_ORD_ID_LEN = -4015,
  PRICE_HIGHER_THAN_MULTIPLIER_UP = -4016,
  PRICE_GREATER_THAN_MAX_PRICE = -4002,
  QTY_NOT_INCREASED_BY_STEP_SIZE = -4023,
  PRICE_LOWER_THAN_MULTIPLIER_DOWN = -4024,
  INVALID_LEVERAGE = -4028,
  NO_NEED_TO_CHANGE_MARGIN_TYPE = -4046,
  MARGIN_TYPE_CHANGE_WITH_OPEN_ORDERS = -4047,
  MARGIN_TYPE_CHANGE_WITH_POSITION = -4048,
  ADD_ISOLATED_MARGIN_REJECT = -4049,
  CROSS_BALANCE_INSUFFICIENT = -4050,
  ISOLATED_BALANCE_INSUFFICIENT = -4051,
  NO_NEED_TO_CHANGE_POSITION_SIDE = -4059,
  INVALID_POSITION_SIDE = -4060,
  POSITION_SIDE_NOT_MATCH = -4061,
  POSITION_SIDE_CHANGE_WITH_OPEN_ORDERS = -4067,
  POSITION_SIDE_CHANGE_WITH_POSITION = -4068,
  DUPLICATED_CLIENT_ORDER_ID = -4116,
  STOP_ORDER_SWITCH_ALGO = -4120,
  MIN_NOTIONAL = -4164,
  GTX_ORDER_REJECT = -5022,
  NO_NEED_TO_MODIFY = -5027,
  INVALID_GOOD_TILL_DATE = -5040,
}

/** A rejection in Binance's wire form: `{"code":…,"msg":…}` with an HTTP status */
export class BinanceError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;

  constructor(code: ErrorCode, msg: string, httpStatus = 400) {
    super(msg);
    this.name = 'BinanceError';
    this.code = code;
    this.httpStatus = httpStatus;
  }

  toBody(): { code: number; msg: string } {
    return { code: this.code, msg: this.message };
  }
}

/** Binance's messages, word for word where they are documented, so clients that match on text keep working */
export const errors = {
  badSymbol: () => new BinanceError(ErrorCode.BAD_SYMBOL, 'Invalid symbol.'),
  badInterval: () => new BinanceError(ErrorCode.BAD_INTERVAL, 'Invalid interval.'),
  mandatory: (name: string) =>
    new BinanceError(
      ErrorCode.MANDATORY_PARAM_EMPTY_OR_MALFORMED,
      `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`,
    ),
  notRequired: (name: string) =>
    new BinanceError(ErrorCode.PARAM_NOT_REQUIRED, `Parameter '${name}' sent when not required.`),
  invalidParam: (detail?: string) =>
    new BinanceError(ErrorCode.INVALID_PARAMETER, detail ?? 'Invalid data sent for a parameter.'),
  illegalChars: (name: string, range: string) =>
    new BinanceError(
      ErrorCode.ILLEGAL_CHARS,
      `Illegal characters found in parameter '${name}'; legal range is '${range}'.`,
    ),
  timestampAhead: () =>
    new BinanceError(
      ErrorCode.INVALID_TIMESTAMP,
      "Timestamp for this request was 1000ms ahead of the server's time.",
    ),
  timestampOutside: () =>
    new BinanceError(ErrorCode.INVALID_TIMESTAMP, 'Timestamp for this request is outside of the recvWindow.'),
  badSignature: () =>
    new BinanceError(ErrorCode.INVALID_SIGNATURE, 'Signature for this request is not valid.'),
  badKeyFormat: () => new BinanceError(ErrorCode.BAD_API_KEY_FMT, 'API-key format invalid.', 401),
  rejectedKey: (ip: string) =>
    new BinanceError(
      ErrorCode.REJECTED_MBX_KEY,
      `Invalid API-key, IP, or permissions for action, request ip: ${ip}`,
      401,
    ),
  tooManyRequests: (ip: string, limit: number) =>
    new BinanceError(
      ErrorCode.TOO_MANY_REQUESTS,
      `Too many requests; current limit of IP(${ip}) is ${limit} requests per minute. Please use the websocket for live updates to avoid polling the API.`,
      429,
    ),
  banned: (ip: string, until: number) =>
    new BinanceError(
      ErrorCode.TOO_MANY_REQUESTS,
      `Way too many requests; IP(${ip}) banned until ${until}. Please use the websocket for live updates to avoid bans.`,
      418,
    ),
  tooManyOrders: (limit: number, interval: string) =>
    new BinanceError(
      ErrorCode.TOO_MANY_ORDERS,
      `Too many new orders; current limit is ${limit} orders per ${interval}.`,
      429,
    ),
  unknown: (status = 500) =>
    new BinanceError(ErrorCode.UNKNOWN, 'An unknown error occured while processing the request.', status),
  executionUnknown: () =>
    new BinanceError(
      ErrorCode.TIMEOUT,
      'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
      503,
    ),
  overloaded: () =>
    new BinanceError(
      ErrorCode.SERVER_BUSY,
      'Server is currently overloaded with other requests. Please try again in a few minutes.',
      503,
    ),
  moreThanHours: (hours: number) =>
    new BinanceError(ErrorCode.MORE_THAN_XX_HOURS, `More than ${hours} hours between startTime and endTime.`),
  invalidListenKey: () => new BinanceError(ErrorCode.INVALID_LISTEN_KEY, 'This listenKey does not exist.'),
  badPrecision: () =>
    new BinanceError(ErrorCode.BAD_PRECISION, 'Precision is over the maximum defined for this asset.'),
  invalidTif: () => new BinanceError(ErrorCode.INVALID_TIF, 'Invalid timeInForce.'),
  invalidOrderType: () => new BinanceError(ErrorCode.INVALID_ORDER_TYPE, 'Invalid orderType.'),
  invalidSide: () => new BinanceError(ErrorCode.INVALID_SIDE, 'Invalid side.'),
  cancelRejected: () => new BinanceError(ErrorCode.CANCEL_REJECTED, 'Unknown order sent.'),
  noSuchOrder: () => new BinanceError(ErrorCode.NO_SUCH_ORDER, 'Order does not exist.'),
  marginInsufficient: () => new BinanceError(ErrorCode.MARGIN_NOT_SUFFICIENT, 'Margin is insufficient.'),
  wouldTrigger: () =>
    new BinanceError(ErrorCode.ORDER_WOULD_IMMEDIATELY_TRIGGER, 'Order would immediately trigger.'),
  reduceOnlyReject: () => new BinanceError(ErrorCode.REDUCE_ONLY_REJECT, 'ReduceOnly Order is rejected.'),
  maxPosition: () =>
    new BinanceError(
      ErrorCode.MAX_POSITION_EXCEEDED,
      'Exceeded the maximum allowable position at current leverage.',
    ),
  qtyNotPositive: () =>
    new BinanceError(ErrorCode.QTY_LESS_THAN_ZERO, 'Quantity less than or equal to zero.'),
  qtyBelowMin: () => new BinanceError(ErrorCode.QTY_LESS_THAN_MIN_QTY, 'Quantity less than min quantity.'),
  qtyAboveMax: () =>
    new BinanceError(ErrorCode.QTY_GREATER_THAN_MAX_QTY, 'Quantity greater than max quantity.'),
  priceBelowMin: () => new BinanceError(ErrorCode.PRICE_LESS_THAN_MIN_PRICE, 'Price less than min price.'),
  priceAboveMax: () =>
    new BinanceError(ErrorCode.PRICE_GREATER_THAN_MAX_PRICE, 'Price greater than max price.'),
  tick: () =>
    new BinanceError(ErrorCode.PRICE_NOT_INCREASED_BY_TICK_SIZE, 'Price not increased by tick size.'),
  step: () =>
    new BinanceError(ErrorCode.QTY_NOT_INCREASED_BY_STEP_SIZE, 'Quantity not increased by step size.'),
  priceUp: (limit: string) =>
    new BinanceError(ErrorCode.PRICE_HIGHER_THAN_MULTIPLIER_UP, `Limit price can't be higher than ${limit}.`),
  priceDown: (limit: string) =>
    new BinanceError(ErrorCode.PRICE_LOWER_THAN_MULTIPLIER_DOWN, `Limit price can't be lower than ${limit}.`),
  clientIdLength: () =>
    new BinanceError(
      ErrorCode.INVALID_CL_ORD_ID_LEN,
      'Client order id length should not be more than 36 chars',
    ),
  invalidLeverage: (leverage: string) =>
    new BinanceError(ErrorCode.INVALID_LEVERAGE, `Leverage ${leverage} is not valid`),
  noNeedMarginType: () =>
    new BinanceError(ErrorCode.NO_NEED_TO_CHANGE_MARGIN_TYPE, 'No need to change margin type.'),
  marginTypeOpenOrders: () =>
    new BinanceError(
      ErrorCode.MARGIN_TYPE_CHANGE_WITH_OPEN_ORDERS,
      'Margin type cannot be changed if there exists open orders.',
    ),
  isolatedOnly: () =>
    new BinanceError(ErrorCode.ADD_ISOLATED_MARGIN_REJECT, 'Add margin only support for isolated position.'),
  crossBalanceInsufficient: () =>
    new BinanceError(ErrorCode.CROSS_BALANCE_INSUFFICIENT, 'Cross balance insufficient.'),
  isolatedBalanceInsufficient: () =>
    new BinanceError(ErrorCode.ISOLATED_BALANCE_INSUFFICIENT, 'Isolated balance insufficient.'),
  marginTypePosition: () =>
    new BinanceError(
      ErrorCode.MARGIN_TYPE_CHANGE_WITH_POSITION,
      'Margin type cannot be changed if there exists position.',
    ),
  noNeedPositionSide: () =>
    new BinanceError(ErrorCode.NO_NEED_TO_CHANGE_POSITION_SIDE, 'No need to change position side.'),
  invalidPositionSide: () => new BinanceError(ErrorCode.INVALID_POSITION_SIDE, 'Invalid position side.'),
  positionSideMismatch: () =>
    new BinanceError(
      ErrorCode.POSITION_SIDE_NOT_MATCH,
      "Order's position side does not match user's setting.",
    ),
  positionSideOpenOrders: () =>
    new BinanceError(
      ErrorCode.POSITION_SIDE_CHANGE_WITH_OPEN_ORDERS,
      'Position side cannot be changed if there exists open orders.',
    ),
  positionSidePosition: () =>
    new BinanceError(
      ErrorCode.POSITION_SIDE_CHANGE_WITH_POSITION,
      'Position side cannot be changed if there exists position.',
    ),
  duplicateClientId: () =>
    new BinanceError(ErrorCode.DUPLICATED_CLIENT_ORDER_ID, 'ClientOrderId is duplicated.'),
  switchToAlgo: () =>
    new BinanceError(
      ErrorCode.STOP_ORDER_SWITCH_ALGO,
      'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.',
    ),
  minNotional: (notional: string) =>
    new BinanceError(
      ErrorCode.MIN_NOTIONAL,
      `Order's notional must be no smaller than ${notional} (unless you choose reduce only).`,
    ),
  noNeedToModify: () => new BinanceError(ErrorCode.NO_NEED_TO_MODIFY, 'No need to modify the order.'),
  invalidGoodTillDate: () =>
    new BinanceError(
      ErrorCode.INVALID_GOOD_TILL_DATE,
      'The goodTillDate timestamp must be greater than the current time plus 600 seconds and smaller than 253402300799000',
    ),
  postOnlyReject: () =>
    new BinanceError(
      ErrorCode.GTX_ORDER_REJECT,
      'Due to the order could not be executed as maker, the Post Only order will be rejected. The order will not be recorded in the order history',
    ),
};
