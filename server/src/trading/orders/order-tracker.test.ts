import type { FuturesOrder } from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../core/exchange/exchange-adapter';
import type { AlgoOrderUpdateEvent, OrderUpdateEvent } from '../../core/exchange/exchange-streams';
import type { StoredIntent } from './order-intent-repository';
import { OrderTracker, type TrackedOrder } from './order-tracker';

const USER = 'u1';
const BOT = 'bot-1';
const ID = 'kb-abc';

function intent(over: Partial<StoredIntent> = {}): StoredIntent {
  return {
    id: 'i1',
    userId: USER,
    environment: 'testnet',
    botId: BOT,
    source: 'bot',
    clientOrderId: ID,
    symbol: 'BTCUSDT',
    kind: 'order',
    request: {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '2',
      price: '100',
      timeInForce: 'GTC',
    },
    state: 'pending',
    order: null,
    reason: null,
    errorStatus: null,
    errorCode: null,
    attempts: 0,
    lastError: null,
    nextCheckAt: null,
    createdAt: 1,
    sentAt: null,
    updatedAt: 1,
    ...over,
  } as StoredIntent;
}

const order = (status: string, executed: string, updatedAt: number) =>
  ({
    orderId: '77',
    clientOrderId: ID,
    status,
    executedQuantity: executed,
    averagePrice: '100',
    updatedAt,
  }) as unknown as FuturesOrder;

function streamEvent(over: Partial<OrderUpdateEvent>): OrderUpdateEvent {
  return {
    type: 'order',
    symbol: 'BTCUSDT',
    orderId: '77',
    clientOrderId: ID,
    side: 'BUY',
    orderType: 'LIMIT',
    executionType: 'TRADE',
    status: 'PARTIALLY_FILLED',
    price: '100',
    averagePrice: '100',
    quantity: '2',
    executedQuantity: '1',
    lastFilledQuantity: '1',
    lastFilledPrice: '100',
    commission: '0.02',
    commissionAsset: 'USDT',
    realizedPnl: '0',
    positionSide: 'BOTH',
    reduceOnly: false,
    time: 10,
    tradeId: '5001',
    ...over,
  };
}

const trade = (id: string, qty: string, time: number): Trade => ({
  id,
  orderId: '77',
  symbol: 'BTCUSDT',
  side: 'BUY',
  positionSide: 'BOTH',
  price: '100',
  quantity: qty,
  quoteQuantity: String(Number(qty) * 100),
  realizedPnl: '0',
  commission: '0.02',
  commissionAsset: 'USDT',
  maker: true,
  time,
});

function followed() {
  const tracker = new OrderTracker();
  const heard: TrackedOrder[] = [];
  const unsubscribe = tracker.subscribe(BOT, (o) => heard.push({ ...o, fills: [...o.fills] }));
  return { tracker, heard, unsubscribe, now: () => tracker.get(USER, ID) };
}

describe('order tracker: one record per client order id, moving forward only', () => {
  it('follows the intent through the REST answers; a late lookup never moves a placed order back', () => {
    const { tracker, heard, now } = followed();
    tracker.noteIntent(intent({ state: 'pending' }));
    tracker.noteIntent(intent({ state: 'sending' }));
    tracker.noteIntent(intent({ state: 'placed', order: order('NEW', '0', 5) }));
    // A lookup that raced the POST and concluded "unknown" arrives last
    tracker.noteIntent(intent({ state: 'unknown' }));
    expect(now()).toMatchObject({ intentState: 'placed', status: 'NEW', exchangeOrderId: '77' });
    expect(heard.map((o) => o.intentState)).toEqual(['pending', 'sending', 'placed']);
  });

  it('a not-placed intent may be sent again (a bot asks again) or placed by a late answer; a rejection stays', () => {
    const { tracker, now } = followed();
    tracker.noteIntent(intent({ state: 'not_placed', reason: 'no such order' }));
    tracker.noteIntent(intent({ state: 'pending' }));
    expect(now()?.intentState).toBe('pending');
    tracker.noteIntent(intent({ state: 'rejected', reason: 'Margin is insufficient.' }));
    tracker.noteIntent(intent({ state: 'placed', order: order('NEW', '0', 5) }));
    expect(now()).toMatchObject({
      intentState: 'rejected',
      reason: 'Margin is insufficient.',
      status: undefined,
    });
  });

  it('the exchange state only moves forward: less executed or a working status after a finished one is ignored', () => {
    const { tracker, now } = followed();
    tracker.noteIntent(intent({ state: 'placed', order: order('PARTIALLY_FILLED', '1', 10) }));
    tracker.noteIntent(intent({ state: 'placed', order: order('NEW', '0', 5) }));
    expect(now()).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: 1 });
    tracker.noteStream(
      USER,
      streamEvent({ executionType: 'CANCELED', status: 'CANCELED', lastFilledQuantity: '0' }),
    );
    tracker.noteIntent(intent({ state: 'placed', order: order('PARTIALLY_FILLED', '1', 20) }));
    expect(now()).toMatchObject({ status: 'CANCELED', executedQty: 1 });
  });

  it('fills are kept once per trade id, with their commission, whether the stream or a trades read brought them', () => {
    const { tracker, now } = followed();
    tracker.noteIntent(intent({ state: 'placed', order: order('NEW', '0', 5) }));
    tracker.noteStream(USER, streamEvent({}));
    tracker.noteStream(USER, streamEvent({}));
    tracker.noteTrades(USER, [trade('5001', '1', 10), trade('5002', '1', 12)]);
    expect(now()?.fills).toEqual([
      expect.objectContaining({ tradeId: '5001', quantity: 1, commission: 0.02, via: 'stream' }),
      expect.objectContaining({ tradeId: '5002', quantity: 1, commission: 0.02, via: 'exchange' }),
    ]);
  });

  it('the stream speaks only of orders the exchange has: an unknown intent it names is placed', () => {
    const { tracker, now } = followed();
    tracker.noteIntent(intent({ state: 'unknown' }));
    tracker.noteStream(
      USER,
      streamEvent({ executionType: 'NEW', status: 'NEW', executedQuantity: '0', lastFilledQuantity: '0' }),
    );
    expect(now()).toMatchObject({ intentState: 'placed', status: 'NEW' });
  });

  it('keeps nothing of a bot nobody follows, and forgets a bot’s orders when its last subscriber goes', () => {
    const tracker = new OrderTracker();
    tracker.noteIntent(intent());
    expect(tracker.get(USER, ID)).toBeUndefined();
    const a = tracker.subscribe(BOT, () => {});
    const b = tracker.subscribe(BOT, () => {});
    tracker.noteIntent(intent());
    a();
    expect(tracker.get(USER, ID)).toBeDefined();
    b();
    expect(tracker.get(USER, ID)).toBeUndefined();
  });

  describe('a conditional order that fired lives on as the order its trigger placed', () => {
    const conditional = (status: string, triggered?: string) =>
      intent({
        state: 'placed',
        kind: 'conditional',
        order: {
          ...order(status, '0', 20),
          orderId: '9001',
          kind: 'conditional',
          triggeredOrderId: triggered ?? null,
        } as unknown as FuturesOrder,
      });
    const algoEvent = (status: string, triggered?: string): AlgoOrderUpdateEvent => ({
      type: 'algoOrder',
      symbol: 'BTCUSDT',
      algoId: '9001',
      clientAlgoId: ID,
      orderType: 'STOP_MARKET',
      side: 'SELL',
      positionSide: 'BOTH',
      status,
      triggerPrice: '95',
      price: '0',
      quantity: '2',
      reduceOnly: true,
      closePosition: false,
      ...(triggered ? { triggeredOrderId: triggered } : {}),
      time: 30,
    });
    // The triggered order's own update: the exchange names it, not us
    const placedUpdate = streamEvent({
      orderId: '555',
      clientOrderId: 'autoclose-xyz',
      orderType: 'MARKET',
      status: 'FILLED',
      executedQuantity: '2',
      lastFilledQuantity: '2',
      lastFilledPrice: '94.9',
      averagePrice: '94.9',
      tradeId: '6001',
      time: 31,
    });

    it('on the stream: the fired update names the order, whose fill is then the conditional order’s', () => {
      const { tracker, now } = followed();
      tracker.noteIntent(conditional('NEW'));
      expect(tracker.noteConditional(USER, algoEvent('TRIGGERED', '555'))).toBe(true);
      // Fired but not filled yet: still working, under its own id
      expect(now()).toMatchObject({ status: 'NEW', exchangeOrderId: '9001', triggeredOrderId: '555' });
      expect(tracker.noteStream(USER, placedUpdate)).toBe(ID);
      expect(now()).toMatchObject({
        status: 'FILLED',
        executedQty: 2,
        averagePrice: 94.9,
        exchangeOrderId: '9001',
      });
      expect(now()?.fills).toEqual([expect.objectContaining({ tradeId: '6001', quantity: 2, price: 94.9 })]);
      // The conditional order finishing after that changes nothing
      tracker.noteConditional(USER, algoEvent('FINISHED', '555'));
      tracker.noteIntent(conditional('FINISHED', '555'));
      expect(now()).toMatchObject({ status: 'FILLED', executedQty: 2 });
    });

    it('by REST alone: a finished conditional order is filled by the trades of the order it placed', () => {
      const { tracker, now } = followed();
      tracker.noteIntent(conditional('NEW'));
      // The triggered order's update came before the fired one: nobody follows it yet
      expect(tracker.noteStream(USER, placedUpdate)).toBeUndefined();
      tracker.noteIntent(conditional('FINISHED', '555'));
      expect(now()).toMatchObject({ status: 'NEW', executedQty: 0, triggeredOrderId: '555' });
      tracker.noteTrades(USER, [{ ...trade('6001', '2', 31), orderId: '555', price: '94.9' }]);
      expect(now()).toMatchObject({ status: 'FILLED', executedQty: 2, averagePrice: 94.9 });
    });

    it('a conditional order canceled before it fired is canceled', () => {
      const { tracker, now } = followed();
      tracker.noteIntent(conditional('NEW'));
      expect(tracker.noteConditional(USER, algoEvent('CANCELED'))).toBe(false);
      expect(now()).toMatchObject({ status: 'CANCELED', executedQty: 0 });
    });
  });
});
