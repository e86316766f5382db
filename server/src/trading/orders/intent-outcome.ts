import type { Order } from '../../core/exchange/exchange-adapter';
import { HttpError } from '../../lib/http-error';
import type { StoredIntent } from './order-intent-repository';

/**
 * An intent's outcome as an HTTP caller gets it: the order once placed; the stored refusal (the exchange's or the
 * risk guard's words, with the status it was first answered with) when rejected or not placed; 503
 * ORDER_STATUS_UNKNOWN while the server is still finding out. A repeated request answers exactly the same
 */
export function intentOutcome(intent: StoredIntent): Order {
  if (intent.state === 'placed' && intent.order) return intent.order as Order;
  if (intent.state === 'rejected' || intent.state === 'not_placed') {
    throw new HttpError(
      intent.errorStatus ?? (intent.state === 'rejected' ? 400 : 503),
      intent.errorCode ?? (intent.state === 'rejected' ? 'EXCHANGE_REJECTED' : 'ORDER_NOT_PLACED'),
      intent.reason ?? 'The order was not placed',
    );
  }
  throw new HttpError(
    503,
    'ORDER_STATUS_UNKNOWN',
    // The client order id is in the open orders' notice; a 36-character word does not wrap in the ticket
    'The exchange did not confirm the order. Kestrel keeps asking the exchange about it and shows it as ' +
      '"status unknown" in open orders until it knows',
  );
}
