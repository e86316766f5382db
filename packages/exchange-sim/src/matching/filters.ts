import { errors } from '../common/errors';
import { Decimal } from '../common/format';
import type { SymbolSpec } from '../common/symbols';

function places(d: Decimal): number {
  return d.decimalPlaces();
}

/** LOT_SIZE (or MARKET_LOT_SIZE for market orders) checks, in Binance's order */
export function checkQuantity(spec: SymbolSpec, qty: Decimal, market: boolean): void {
  if (qty.lte(0)) throw errors.qtyNotPositive();
  if (places(qty) > spec.quantityPrecision) throw errors.badPrecision();
  const minQty = new Decimal(market ? spec.marketMinQty : spec.minQty);
  const maxQty = new Decimal(market ? spec.marketMaxQty : spec.maxQty);
  const step = new Decimal(market ? spec.marketStepSize : spec.stepSize);
  if (qty.lt(minQty)) throw errors.qtyBelowMin();
  if (qty.gt(maxQty)) throw errors.qtyAboveMax();
  if (!qty.minus(minQty).mod(step).isZero()) throw errors.step();
}

/** PRICE_FILTER: precision, min, max, tick (trigger prices get only this) */
export function checkPriceFilter(spec: SymbolSpec, price: Decimal): void {
  if (price.lte(0)) throw errors.invalidParam('Price less than or equal to zero.');
  if (places(price) > spec.pricePrecision) throw errors.badPrecision();
  const minPrice = new Decimal(spec.minPrice);
  if (price.lt(minPrice)) throw errors.priceBelowMin();
  if (price.gt(spec.maxPrice)) throw errors.priceAboveMax();
  const tick = new Decimal(spec.tickSize);
  if (!price.minus(minPrice).mod(tick).isZero()) throw errors.tick();
}

/** PRICE_FILTER then PERCENT_PRICE (buy no higher than mark × up, sell no lower than mark × down) */
export function checkPrice(
  spec: SymbolSpec,
  price: Decimal,
  side: 'BUY' | 'SELL',
  mark: Decimal.Value,
): void {
  checkPriceFilter(spec, price);
  const m = new Decimal(mark);
  if (side === 'BUY') {
    const cap = m.mul(spec.multiplierUp).toDecimalPlaces(spec.pricePrecision, Decimal.ROUND_DOWN);
    if (price.gt(cap)) throw errors.priceUp(cap.toFixed(spec.pricePrecision));
  } else {
    const floor = m.mul(spec.multiplierDown).toDecimalPlaces(spec.pricePrecision, Decimal.ROUND_UP);
    if (price.lt(floor)) throw errors.priceDown(floor.toFixed(spec.pricePrecision));
  }
}

/** MIN_NOTIONAL: price × qty (market orders at the mark price); reduce-only orders are exempt */
export function checkNotional(spec: SymbolSpec, price: Decimal, qty: Decimal, reduceOnly: boolean): void {
  if (reduceOnly) return;
  if (price.mul(qty).lt(spec.minNotional)) throw errors.minNotional(spec.minNotional);
}
