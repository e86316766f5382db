import { createHash } from 'node:crypto';
import { newClientOrderId } from '../../core/exchange/binance-adapter';
import { HttpError } from '../../lib/http-error';

/** Binance's rule for newClientOrderId / clientAlgoId */
export const CLIENT_ORDER_ID = /^[.A-Za-z0-9:/_-]{1,36}$/;
/** What a caller's idempotency key may be: printable, not empty, bounded (it is hashed, never sent as is) */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/** 32 characters of base64url (A-Z a-z 0-9 - _, all legal in a client order id) of a SHA-256 */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 32);
}

/** What every bot order's client id starts with (`botClientOrderId`) */
const BOT_ORDER_PREFIX = 'kb-';

/** Whether a client order id is a bot's (the trader's own orders and other tools' carry other ids) */
export const isBotClientOrderId = (clientOrderId: string): boolean =>
  clientOrderId.startsWith(BOT_ORDER_PREFIX);

/**
 * A bot's client order id: the same (bot, intent key) always gives the same id, so a bot that restarts and asks
 * for the same intent again finds the first one instead of sending a second order. `kb-` + 32 = 35 characters
 */
export function botClientOrderId(botId: string, intentKey: string): string {
  if (intentKey.length === 0 || intentKey.length > 200) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'intentKey must be 1-200 characters');
  }
  // JSON of the pair: no separator a key could contain, so two different pairs never hash the same text
  return `${BOT_ORDER_PREFIX}${digest(JSON.stringify([botId, intentKey]))}`;
}

/**
 * A manual order's client order id: the one the browser sent in the body (used as is, it is the id the trader
 * sees), else one derived from its `Idempotency-Key` header (the user's id mixed in, so two users' keys never
 * meet), else a fresh random one (no retry protection across requests, but still recorded before sending)
 */
export function manualClientOrderId(
  userId: string,
  input: { clientOrderId?: string; idempotencyKey?: string },
): string {
  if (input.clientOrderId !== undefined) {
    if (!CLIENT_ORDER_ID.test(input.clientOrderId)) {
      throw new HttpError(
        400,
        'VALIDATION_ERROR',
        'clientOrderId must be 1-36 characters of A-Z a-z 0-9 . : / _ -',
      );
    }
    return input.clientOrderId;
  }
  if (input.idempotencyKey !== undefined) {
    if (!IDEMPOTENCY_KEY.test(input.idempotencyKey)) {
      throw new HttpError(
        400,
        'VALIDATION_ERROR',
        'Idempotency-Key must be 1-200 printable ASCII characters without spaces',
      );
    }
    return `km-${digest(JSON.stringify([userId, input.idempotencyKey]))}`;
  }
  return newClientOrderId();
}

/**
 * The client order id of a TP/SL attached to a manual entry: derived from the entry's id, the kind and the attempt,
 * so a follower on any instance that places it again finds the first one instead of sending a second order; a new
 * attempt (the previous one proven never sent) gets a new id. `kp-` + 32 = 35 characters
 */
export function protectionClientOrderId(
  entryClientOrderId: string,
  kind: 'takeProfit' | 'stopLoss',
  attempt: number,
): string {
  return `kp-${digest(JSON.stringify([entryClientOrderId, kind, attempt]))}`;
}
