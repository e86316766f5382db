import type { BotCandle, BotFill, BotPnlPoint } from '@kestrel/contracts/bots';

/** A bot's position as its own fills build it (one-way netting): signed quantity, average entry, PnL after fees */
interface Book {
  qty: number;
  entry: number;
  realized: number;
}

/** The fill applied to the book: its realized PnL (the exchange's or the broker's) less its fee, then the position */
function apply(book: Book, fill: BotFill): void {
  book.realized += fill.realizedPnl - fill.fee;
  const signed = fill.side === 'BUY' ? fill.quantity : -fill.quantity;
  const next = book.qty + signed;
  if (book.qty === 0 || Math.sign(book.qty) === Math.sign(signed)) {
    // Opening or adding: the entry is the quantity-weighted average
    book.entry =
      next === 0 ? 0 : (book.entry * Math.abs(book.qty) + fill.price * fill.quantity) / Math.abs(next);
  } else if (Math.sign(next) !== Math.sign(book.qty) && next !== 0) {
    // Through zero: what is left is a new position opened at this fill's price
    book.entry = fill.price;
  } else if (next === 0) {
    book.entry = 0;
  }
  // Reducing keeps the entry
  book.qty = next;
}

const point = (time: number, book: Book, price: number): BotPnlPoint => {
  const unrealized = book.qty === 0 ? 0 : book.qty * (price - book.entry);
  return { time, realized: book.realized, unrealized, total: book.realized + unrealized };
};

/**
 * The bot's PnL at each candle's close (the point carries the candle's open time, as the chart draws it) and then
 * at `now` at `lastPrice`: realized after fees from every fill up to then, plus the unrealized PnL of the position
 * they leave at that price. `earlier` are the fills before the first candle: they set the starting book
 */
export function pnlCurve(input: {
  earlier: readonly BotFill[];
  fills: readonly BotFill[];
  candles: readonly BotCandle[];
  /** Close time of the last candle (each other candle closes when the next opens) */
  to: number;
  now: number;
  lastPrice: number | null;
}): BotPnlPoint[] {
  const book: Book = { qty: 0, entry: 0, realized: 0 };
  for (const fill of input.earlier) apply(book, fill);
  const curve: BotPnlPoint[] = [];
  let next = 0;
  for (let i = 0; i < input.candles.length; i++) {
    const candle = input.candles[i] as BotCandle;
    const close = input.candles[i + 1]?.time ?? input.to;
    while (next < input.fills.length && (input.fills[next] as BotFill).time < close) {
      apply(book, input.fills[next] as BotFill);
      next++;
    }
    curve.push(point(candle.time, book, candle.close));
  }
  for (; next < input.fills.length; next++) apply(book, input.fills[next] as BotFill);
  const last = input.lastPrice ?? input.candles.at(-1)?.close;
  if (last !== undefined && input.now > (curve.at(-1)?.time ?? Number.NEGATIVE_INFINITY)) {
    curve.push(point(input.now, book, last));
  }
  return curve;
}
