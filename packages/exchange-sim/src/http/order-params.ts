import { errors } from '../common/errors';
import type { PositionSide, Side } from '../matching/types';
import type { Params } from './params';

/*
 * Parameters plain orders (`/fapi/v1/order`, batches) and conditional ones (`/fapi/v1/algoOrder`) read alike, so
 * their checks and error codes have one home.
 */

/** The mandatory `side`: -1102 when missing, -1117 when not BUY or SELL */
export function sideParam(p: Params): Side {
  const side = p.oneOf<Side>('side', ['BUY', 'SELL'], errors.invalidSide);
  if (!side) throw errors.mandatory('side');
  return side;
}

/** The optional `positionSide` (BOTH, LONG or SHORT; else -4060) */
export function positionSideParam(p: Params): PositionSide | undefined {
  return p.oneOf<PositionSide>('positionSide', ['BOTH', 'LONG', 'SHORT'], errors.invalidPositionSide);
}
