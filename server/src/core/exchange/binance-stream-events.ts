import {
  AccountUpdateSchema,
  AggTradeEventSchema,
  AlgoUpdateSchema,
  BookTickerEventSchema,
  CombinedFrameSchema,
  DepthUpdateEventSchema,
  KlineEventSchema,
  MarkPriceEventSchema,
  OrderTradeUpdateSchema,
  StreamEventSchema,
  TickerEventSchema,
} from './binance-event-schemas';
import { readAnswer } from './binance-schemas';
import { ExchangeResponseError } from './exchange-adapter';
import type { MarketEvent, UserDataEvent } from './exchange-streams';
import { parseJsonBigSafe } from './json-bigint';

/** An event as it came, before its own fields are read */
export interface WireEvent {
  e: string;
  [field: string]: unknown;
}

/** A stream message: an event (unwrapped from a combined stream), or the answer to a SUBSCRIBE/UNSUBSCRIBE */
export type StreamMessage = { event: WireEvent } | { reply: { error?: unknown } };

/**
 * One stream message, read; an ExchangeResponseError (naming `source`) when it is not JSON or neither an event
 * nor a reply
 */
export function readStreamMessage(source: string, text: string): StreamMessage {
  let value: unknown;
  try {
    value = parseJsonBigSafe(text);
  } catch {
    throw new ExchangeResponseError(source, [{ path: '', message: 'expected JSON' }]);
  }
  if (typeof value === 'object' && value !== null && ('result' in value || 'error' in value)) {
    return { reply: { error: 'error' in value ? value.error : undefined } };
  }
  if (typeof value === 'object' && value !== null && 'stream' in value) {
    const frame = readAnswer(source, CombinedFrameSchema, value);
    return { event: readAnswer(source, StreamEventSchema, frame.data, ['data']) };
  }
  return { event: readAnswer(source, StreamEventSchema, value) };
}

const source = (event: WireEvent) => `${event.e} event`;

/**
 * A market event in our terms; undefined for event types we do not map. Throws ExchangeResponseError when an
 * event we map lacks a field or has one of the wrong type
 */
export function toMarketEvent(event: WireEvent): MarketEvent | undefined {
  switch (event.e) {
    case '24hrTicker': {
      const d = readAnswer(source(event), TickerEventSchema, event);
      return {
        type: 'ticker',
        symbol: d.s,
        lastPrice: d.c,
        priceChange: d.p,
        priceChangePercent: d.P,
        openPrice: d.o,
        highPrice: d.h,
        lowPrice: d.l,
        volume: d.v,
        quoteVolume: d.q,
        time: d.E,
      };
    }
    case 'markPriceUpdate': {
      const d = readAnswer(source(event), MarkPriceEventSchema, event);
      return {
        type: 'markPrice',
        symbol: d.s,
        markPrice: d.p,
        indexPrice: d.i,
        fundingRate: d.r,
        nextFundingTime: d.T,
        time: d.E,
      };
    }
    case 'bookTicker': {
      const d = readAnswer(source(event), BookTickerEventSchema, event);
      return {
        type: 'bookTicker',
        symbol: d.s,
        bidPrice: d.b,
        bidQuantity: d.B,
        askPrice: d.a,
        askQuantity: d.A,
        time: d.E,
      };
    }
    case 'depthUpdate': {
      const d = readAnswer(source(event), DepthUpdateEventSchema, event);
      return {
        type: 'depth',
        symbol: d.s,
        firstUpdateId: d.U,
        finalUpdateId: d.u,
        previousFinalUpdateId: d.pu,
        bids: d.b,
        asks: d.a,
        time: d.E,
      };
    }
    case 'aggTrade': {
      const d = readAnswer(source(event), AggTradeEventSchema, event);
      return {
        type: 'aggTrade',
        symbol: d.s,
        id: d.a,
        price: d.p,
        quantity: d.q,
        buyerMaker: d.m,
        time: d.T,
      };
    }
    case 'kline': {
      const d = readAnswer(source(event), KlineEventSchema, event);
      const k = d.k;
      return {
        type: 'kline',
        symbol: d.s,
        interval: k.i,
        closed: k.x,
        time: d.E,
        kline: {
          openTime: k.t,
          open: k.o,
          high: k.h,
          low: k.l,
          close: k.c,
          volume: k.v,
          closeTime: k.T,
          quoteVolume: k.q,
          trades: k.n,
        },
      };
    }
    default:
      return undefined;
  }
}

/**
 * A user-data event in our terms; undefined for event types we do not map (ACCOUNT_CONFIG_UPDATE, TRADE_LITE, …).
 * Throws ExchangeResponseError when an event we map lacks a field or has one of the wrong type
 */
export function toUserDataEvent(event: WireEvent): UserDataEvent | undefined {
  switch (event.e) {
    case 'ORDER_TRADE_UPDATE': {
      const o = readAnswer(source(event), OrderTradeUpdateSchema, event).o;
      return {
        type: 'order',
        symbol: o.s,
        orderId: o.i,
        clientOrderId: o.c,
        side: o.S,
        orderType: o.o,
        // Binance says CALCULATED for a liquidation fill
        executionType: o.x === 'CALCULATED' ? 'LIQUIDATION' : o.x,
        status: o.X,
        price: o.p,
        averagePrice: o.ap,
        quantity: o.q,
        executedQuantity: o.z,
        lastFilledQuantity: o.l,
        lastFilledPrice: o.L,
        // Not pushed when the fill paid none
        commission: o.n ?? '0',
        commissionAsset: o.N ?? '',
        realizedPnl: o.rp,
        positionSide: o.ps,
        reduceOnly: o.R,
        time: o.T,
        // Binance says 0 when the update is not a trade
        ...(o.t !== undefined && o.t !== '0' ? { tradeId: o.t } : {}),
      };
    }
    case 'ALGO_UPDATE': {
      const d = readAnswer(source(event), AlgoUpdateSchema, event);
      const o = d.o;
      return {
        type: 'algoOrder',
        symbol: o.s,
        algoId: o.aid,
        clientAlgoId: o.caid,
        orderType: o.o,
        side: o.S,
        positionSide: o.ps,
        status: o.X,
        triggerPrice: o.tp,
        price: o.p,
        quantity: o.q,
        reduceOnly: o.R,
        closePosition: o.cp,
        ...(o.ai ? { triggeredOrderId: o.ai } : {}),
        ...(o.rm ? { reason: o.rm } : {}),
        time: d.E,
      };
    }
    case 'ACCOUNT_UPDATE': {
      const d = readAnswer(source(event), AccountUpdateSchema, event);
      return {
        type: 'account',
        reason: d.a.m,
        time: d.E,
        balances: d.a.B.map((b) => ({
          asset: b.a,
          walletBalance: b.wb,
          crossWalletBalance: b.cw,
          balanceChange: b.bc,
        })),
        // Left out by Binance when only balances moved
        positions: (d.a.P ?? []).map((p) => ({
          symbol: p.s,
          positionSide: p.ps,
          amount: p.pa,
          entryPrice: p.ep,
          unrealizedPnl: p.up,
          marginType: p.mt,
        })),
      };
    }
    default:
      return undefined;
  }
}
