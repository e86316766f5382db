import type { OrderStatus, PositionSide } from './exchange-adapter';
import type { MarketEvent, UserDataEvent } from './exchange-streams';
import { parseJsonBigSafe } from './json-bigint';

type Raw = Record<string, unknown>;

const str = (v: unknown): string => (v === undefined || v === null ? '0' : String(v));
const num = (v: unknown): number => Number(v ?? 0);

/** A stream frame as an object; undefined when it is not JSON or not an object */
export function parseFrame(text: string): Raw | undefined {
  try {
    const v = parseJsonBigSafe(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : undefined;
  } catch {
    return undefined;
  }
}

/** A market payload in our terms; undefined for events we do not map */
export function toMarketEvent(d: Raw): MarketEvent | undefined {
  switch (d.e) {
    case '24hrTicker':
      return {
        type: 'ticker',
        symbol: str(d.s),
        lastPrice: str(d.c),
        priceChange: str(d.p),
        priceChangePercent: str(d.P),
        openPrice: str(d.o),
        highPrice: str(d.h),
        lowPrice: str(d.l),
        volume: str(d.v),
        quoteVolume: str(d.q),
        time: num(d.E),
      };
    case 'markPriceUpdate':
      return {
        type: 'markPrice',
        symbol: str(d.s),
        markPrice: str(d.p),
        indexPrice: str(d.i),
        fundingRate: str(d.r),
        nextFundingTime: num(d.T),
        time: num(d.E),
      };
    case 'bookTicker':
      return {
        type: 'bookTicker',
        symbol: str(d.s),
        bidPrice: str(d.b),
        bidQuantity: str(d.B),
        askPrice: str(d.a),
        askQuantity: str(d.A),
        time: num(d.E ?? d.T),
      };
    case 'kline': {
      const k = (d.k ?? {}) as Raw;
      return {
        type: 'kline',
        symbol: str(d.s),
        interval: str(k.i),
        closed: k.x === true,
        time: num(d.E),
        kline: {
          openTime: num(k.t),
          open: str(k.o),
          high: str(k.h),
          low: str(k.l),
          close: str(k.c),
          volume: str(k.v),
          closeTime: num(k.T),
          quoteVolume: str(k.q),
          trades: num(k.n),
        },
      };
    }
    default:
      return undefined;
  }
}

/** A user-data payload in our terms; undefined for events we do not map (ACCOUNT_CONFIG_UPDATE, TRADE_LITE, …) */
export function toUserDataEvent(d: Raw): UserDataEvent | undefined {
  if (d.e === 'ORDER_TRADE_UPDATE') {
    const o = (d.o ?? {}) as Raw;
    return {
      type: 'order',
      symbol: str(o.s),
      orderId: str(o.i),
      clientOrderId: str(o.c),
      side: o.S === 'SELL' ? 'SELL' : 'BUY',
      orderType: str(o.o),
      // Binance says CALCULATED for a liquidation fill
      executionType: o.x === 'CALCULATED' ? 'LIQUIDATION' : str(o.x),
      status: str(o.X) as OrderStatus,
      price: str(o.p),
      averagePrice: str(o.ap),
      quantity: str(o.q),
      executedQuantity: str(o.z),
      lastFilledQuantity: str(o.l),
      lastFilledPrice: str(o.L),
      commission: str(o.n),
      commissionAsset: o.N === undefined || o.N === null ? '' : String(o.N),
      realizedPnl: str(o.rp),
      positionSide: (o.ps as PositionSide | undefined) ?? 'BOTH',
      reduceOnly: o.R === true,
      time: num(o.T ?? d.E),
    };
  }
  if (d.e === 'ALGO_UPDATE') {
    const o = (d.o ?? {}) as Raw;
    const triggered = o.ai === undefined || o.ai === null || o.ai === '' ? undefined : String(o.ai);
    const reason = typeof o.rm === 'string' && o.rm !== '' ? o.rm : undefined;
    return {
      type: 'algoOrder',
      symbol: str(o.s),
      algoId: str(o.aid),
      clientAlgoId: o.caid === undefined || o.caid === null ? '' : String(o.caid),
      orderType: str(o.o),
      side: o.S === 'SELL' ? 'SELL' : 'BUY',
      positionSide: (o.ps as PositionSide | undefined) ?? 'BOTH',
      status: str(o.X),
      triggerPrice: str(o.tp),
      price: str(o.p),
      quantity: str(o.q),
      reduceOnly: o.R === true,
      closePosition: o.cp === true,
      ...(triggered ? { triggeredOrderId: triggered } : {}),
      ...(reason ? { reason } : {}),
      time: num(d.E ?? d.T),
    };
  }
  if (d.e === 'ACCOUNT_UPDATE') {
    const a = (d.a ?? {}) as Raw;
    return {
      type: 'account',
      reason: str(a.m),
      time: num(d.E),
      balances: ((a.B as Raw[] | undefined) ?? []).map((b) => ({
        asset: str(b.a),
        walletBalance: str(b.wb),
        crossWalletBalance: str(b.cw),
        balanceChange: str(b.bc),
      })),
      positions: ((a.P as Raw[] | undefined) ?? []).map((p) => ({
        symbol: str(p.s),
        positionSide: (p.ps as PositionSide | undefined) ?? 'BOTH',
        amount: str(p.pa),
        entryPrice: str(p.ep),
        unrealizedPnl: str(p.up),
        marginType: str(p.mt),
      })),
    };
  }
  return undefined;
}
