import { errors } from '../common/errors';
import type { Account, PositionSide } from './types';

/** Checks shared by orders and conditional orders: position side by position mode, client ids */

/** Binance's client order id pattern */
export const CLIENT_ORDER_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;

/**
 * The position side an order trades in: one-way mode takes only BOTH; hedge mode needs LONG or SHORT and refuses
 * `reduceOnly` (closing is implied by the side)
 */
export function positionSideFor(
  account: Account,
  requested: PositionSide | undefined,
  reduceOnly: boolean | undefined,
): PositionSide {
  const side = requested ?? 'BOTH';
  if (account.dualSidePosition) {
    if (side === 'BOTH') throw errors.positionSideMismatch();
    if (reduceOnly !== undefined) throw errors.notRequired('reduceonly');
  } else if (side !== 'BOTH') {
    throw errors.positionSideMismatch();
  }
  return side;
}

/** Binance's client id rule (`^[.A-Z:/a-z0-9_-]{1,36}$`), unique among open orders */
export function checkClientId(name: string, id: string | undefined, inUse: (id: string) => boolean): void {
  if (id === undefined) return;
  if (id.length > 36) throw errors.clientIdLength();
  if (!CLIENT_ORDER_ID.test(id)) throw errors.illegalChars(name, '^[\\.A-Z\\:/a-z0-9_-]{1,36}$');
  if (inUse(id)) throw errors.duplicateClientId();
}
