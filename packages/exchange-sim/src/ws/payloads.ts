import { ticker24h } from '../http/market-data';
import { aggregate, barOpen, INTERVALS, type Interval } from '../matching/klines';
import { type Market, nextFundingTime } from '../matching/market';
import { aggTradeAt, aggTradeId, bookUpdateId, TRADES_PER_AGG_TRADE } from '../matching/tape';
import { levelRows } from './depth-stream';

export type StreamKind =
  | 'aggTrade'
  | 'markPrice'
  | 'markPrice@1s'
  | 'kline'
  | 'bookTicker'
  | 'ticker'
  | 'miniTicker'
  /** Diff book depth, stateful per subscription (`depth-stream.ts`) */
  | 'depth'
  /** Partial book depth: the top 5, 10 or 20 levels each second */
  | 'partialDepth';

/** Levels of the partial book depth streams (`<symbol>@depth<levels>`) */
export type PartialDepthLevels = 5 | 10 | 20;

/** `depth` or `depth5|10|20`, each with Binance's optional update speed */
const DEPTH_STREAM = /^depth(5|10|20)?(@(100|250|500)ms)?$/;

/** A parsed stream name such as `btcusdt@kline_1m` */
export interface StreamName {
  name: string;
  symbol: string;
  kind: StreamKind;
  interval?: Interval;
  /** Partial depth: how many levels per side */
  levels?: PartialDepthLevels;
  /** Binance serves bookTicker and depth on /public, the rest on /market */
  route: 'public' | 'market';
}

/** Parses a stream name; undefined when the simulator does not serve it */
export function parseStream(name: string, symbols: ReadonlySet<string>): StreamName | undefined {
  const [sym, ...rest] = name.split('@');
  if (!sym || rest.length === 0) return undefined;
  // Stream names are lowercase on Binance; an upper-case symbol is a different (unknown) stream
  if (sym !== sym.toLowerCase()) return undefined;
  const symbol = sym.toUpperCase();
  if (!symbols.has(symbol)) return undefined;
  const kindRaw = rest.join('@');
  if (kindRaw === 'aggTrade') return { name, symbol, kind: 'aggTrade', route: 'market' };
  if (kindRaw === 'markPrice') return { name, symbol, kind: 'markPrice', route: 'market' };
  if (kindRaw === 'markPrice@1s') return { name, symbol, kind: 'markPrice@1s', route: 'market' };
  if (kindRaw === 'bookTicker') return { name, symbol, kind: 'bookTicker', route: 'public' };
  if (kindRaw === 'ticker') return { name, symbol, kind: 'ticker', route: 'market' };
  if (kindRaw === 'miniTicker') return { name, symbol, kind: 'miniTicker', route: 'market' };
  // Every update speed is served once a second: the synthetic book only changes once a second
  const depth = DEPTH_STREAM.exec(kindRaw);
  if (depth) {
    if (!depth[1]) return { name, symbol, kind: 'depth', route: 'public' };
    const levels = Number(depth[1]) as PartialDepthLevels;
    return { name, symbol, kind: 'partialDepth', levels, route: 'public' };
  }
  if (kindRaw.startsWith('kline_')) {
    const interval = kindRaw.slice('kline_'.length);
    if (!(INTERVALS as readonly string[]).includes(interval)) return undefined;
    return { name, symbol, kind: 'kline', interval: interval as Interval, route: 'market' };
  }
  return undefined;
}

function px(market: Market, v: number): string {
  return v.toFixed(market.spec.pricePrecision);
}

/** The payload a stream carries at `now`, or undefined when it has nothing to say this second */
export function streamPayload(stream: StreamName, market: Market, now: number): object | undefined {
  const spec = market.spec;
  switch (stream.kind) {
    case 'aggTrade': {
      // The same trade GET /fapi/v1/aggTrades answers for this id
      const t = aggTradeAt(market, aggTradeId(market, now));
      return {
        e: 'aggTrade',
        E: now,
        s: spec.symbol,
        a: t.id,
        p: px(market, t.price),
        q: t.qty,
        nq: t.qty,
        f: t.firstTradeId,
        l: t.lastTradeId,
        T: t.time,
        m: t.buyerMaker,
      };
    }
    case 'markPrice':
    case 'markPrice@1s': {
      // The plain stream updates every 3 s, the @1s one every second
      if (stream.kind === 'markPrice' && Math.floor(now / 1000) % 3 !== 0) return undefined;
      return {
        e: 'markPriceUpdate',
        E: now,
        s: spec.symbol,
        p: market.markPrice(now).toFixed(8),
        ap: market.markPrice(now - 60_000).toFixed(8),
        i: market.indexPrice(now).toFixed(8),
        P: market.indexPrice(now).toFixed(8),
        r: market.estimatedFundingRate(now).toFixed(8),
        T: nextFundingTime(now),
      };
    }
    case 'ticker': {
      // Binance's 24hrTicker (every 2 s, as Binance's update speed): the REST ticker/24hr figures, one-letter names
      if (Math.floor(now / 1000) % 2 !== 0) return undefined;
      const t = ticker24h(market, now);
      return {
        e: '24hrTicker',
        E: now,
        s: t.symbol,
        p: t.priceChange,
        P: t.priceChangePercent,
        w: t.weightedAvgPrice,
        c: t.lastPrice,
        Q: t.lastQty,
        o: t.openPrice,
        h: t.highPrice,
        l: t.lowPrice,
        v: t.volume,
        q: t.quoteVolume,
        O: t.openTime,
        C: t.closeTime,
        F: t.firstId,
        L: t.lastId,
        n: t.count,
      };
    }
    case 'miniTicker': {
      if (Math.floor(now / 1000) % 2 !== 0) return undefined;
      const t = ticker24h(market, now);
      return {
        e: '24hrMiniTicker',
        E: now,
        s: t.symbol,
        c: t.lastPrice,
        o: t.openPrice,
        h: t.highPrice,
        l: t.lowPrice,
        v: t.volume,
        q: t.quoteVolume,
      };
    }
    case 'bookTicker': {
      const { bid, ask } = market.book(now);
      return {
        e: 'bookTicker',
        u: bookUpdateId(market, now),
        s: spec.symbol,
        b: px(market, bid),
        // The best levels' sizes of the same book the depth endpoint, REST bookTicker and taker fills read
        B: market.levelQty(now, 'BID', 0).toFixed(spec.quantityPrecision),
        a: px(market, ask),
        A: market.levelQty(now, 'ASK', 0).toFixed(spec.quantityPrecision),
        T: now,
        E: now,
      };
    }
    case 'partialDepth': {
      // A snapshot of the top levels each second, in the diff event's envelope, ids as the diff stream numbers them
      const book = market.depth(now, stream.levels ?? 20);
      const previous = bookUpdateId(market, now - 1000);
      return {
        e: 'depthUpdate',
        E: now,
        T: now,
        s: spec.symbol,
        U: previous + 1,
        u: bookUpdateId(market, now),
        pu: previous,
        b: levelRows(spec, book.bids),
        a: levelRows(spec, book.asks),
      };
    }
    case 'depth':
      // Stateful per subscription: the stream server asks depth-stream.ts, never this table
      return undefined;
    case 'kline': {
      const interval = stream.interval ?? '1m';
      // At a bar boundary this is the bar that just ended, sent once more with x=true as Binance does
      const open = barOpen(interval, now - 1);
      const k = aggregate(market.feed, interval, open, now);
      if (!k) return undefined;
      const first = aggTradeId(market, open) * TRADES_PER_AGG_TRADE;
      return {
        e: 'kline',
        E: now,
        s: spec.symbol,
        k: {
          t: k.openTime,
          T: k.closeTime,
          s: spec.symbol,
          i: interval,
          f: first,
          L: first + k.trades - 1,
          o: px(market, k.open),
          c: px(market, k.close),
          h: px(market, k.high),
          l: px(market, k.low),
          v: k.volume.toFixed(spec.quantityPrecision),
          n: k.trades,
          x: now > k.closeTime,
          q: k.quoteVolume.toFixed(5),
          V: k.takerBuyBase.toFixed(spec.quantityPrecision),
          Q: k.takerBuyQuote.toFixed(5),
          B: '0',
        },
      };
    }
  }
}
