/**
 * Binance's stream events as the adapter reads them (the fields it maps, with their wire types); see
 * binance-schemas.ts for the field types and `readAnswer`. Events of other types are not read at all.
 */
import { z } from 'zod';
import {
  count,
  decimal,
  flag,
  id,
  idOrEmpty,
  orderStatus,
  positionSide,
  side,
  symbol,
  text,
  time,
} from './binance-schemas';

/** Any event: its type in `e`, the rest read by the event's own schema */
export const StreamEventSchema = z.looseObject({ e: text });
/** A combined stream's wrapper around an event */
export const CombinedFrameSchema = z.object({ stream: text, data: z.unknown() });

/** `<symbol>@ticker` */
export const TickerEventSchema = z.object({
  E: time,
  s: symbol,
  c: decimal,
  p: decimal,
  P: decimal,
  o: decimal,
  h: decimal,
  l: decimal,
  v: decimal,
  q: decimal,
});

/** `<symbol>@markPrice@1s` */
export const MarkPriceEventSchema = z.object({
  E: time,
  s: symbol,
  p: decimal,
  i: decimal,
  r: decimal,
  T: time,
});

/** `<symbol>@bookTicker` (route /public) */
export const BookTickerEventSchema = z.object({
  E: time,
  s: symbol,
  b: decimal,
  B: decimal,
  a: decimal,
  A: decimal,
});

const level = z.tuple([decimal, decimal]);
/** `<symbol>@depth@100ms` (route /public): a diff of the book */
export const DepthUpdateEventSchema = z.object({
  E: time,
  s: symbol,
  U: count,
  u: count,
  pu: count,
  b: z.array(level),
  a: z.array(level),
});

/** `<symbol>@aggTrade` */
export const AggTradeEventSchema = z.object({
  E: time,
  s: symbol,
  a: count,
  p: decimal,
  q: decimal,
  T: time,
  m: flag,
});

/** `<symbol>@kline_<interval>` */
export const KlineEventSchema = z.object({
  E: time,
  s: symbol,
  k: z.object({
    t: time,
    T: time,
    i: text,
    o: decimal,
    h: decimal,
    l: decimal,
    c: decimal,
    v: decimal,
    q: decimal,
    n: count,
    x: flag,
  }),
});

/** User stream: an order changed. `n`/`N` (commission) are not pushed when there is none */
export const OrderTradeUpdateSchema = z.object({
  E: time,
  o: z.object({
    s: symbol,
    c: text,
    S: side,
    o: text,
    x: text,
    X: orderStatus,
    i: id,
    p: decimal,
    ap: decimal,
    q: decimal,
    z: decimal,
    l: decimal,
    L: decimal,
    n: decimal.optional(),
    N: text.optional(),
    rp: decimal,
    ps: positionSide,
    R: flag,
    T: time,
    /** The trade's id on a TRADE execution (0 otherwise): fills are told apart by it */
    t: id.optional(),
  }),
});

/** User stream: a conditional order changed. `ai` is "" until it fired, `rm` only on a rejection */
export const AlgoUpdateSchema = z.object({
  E: time,
  o: z.object({
    s: symbol,
    aid: id,
    caid: text,
    o: text,
    S: side,
    ps: positionSide,
    X: text,
    tp: decimal,
    p: decimal,
    q: decimal,
    R: flag,
    cp: flag,
    ai: idOrEmpty.optional(),
    rm: text.optional(),
  }),
});

/** User stream: balances and positions changed. `P` is left out when only balances moved (cross funding) */
export const AccountUpdateSchema = z.object({
  E: time,
  a: z.object({
    m: text,
    B: z.array(z.object({ a: text, wb: decimal, cw: decimal, bc: decimal })),
    P: z
      .array(z.object({ s: symbol, ps: positionSide, pa: decimal, ep: decimal, up: decimal, mt: text }))
      .optional(),
  }),
});
