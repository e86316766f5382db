import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/clock';
import type { ExchangeKeys, OrderBookSnapshot } from '../exchange/exchange-adapter';
import type {
  ExchangeStreams,
  MarketEvent,
  MarketStream,
  MarketTopic,
  StreamHandlers,
  UserDataEvent,
  UserDataStream,
} from '../exchange/exchange-streams';
import type { BusConnection, LiveEvent, PushTarget } from '../socket/socket-bus';
import { CANDLE_PUSH_MIN_MS, LiveStreams, STREAM_LINGER_MS } from './live-streams';

// The producers' bookkeeping (who needs which upstream stream, and for how long) with the exchange side recorded
// at the adapter's stream seam; the real streams are tested against the simulator in the adapter's and server's
// suites. Time is a manual clock: the linger is a rule with a number

/** Records what the producers asked of the exchange's streams, and lets the test play exchange events */
class RecordedStreams implements ExchangeStreams {
  marketStreams: Array<{
    topics: Map<string, MarketTopic>;
    closed: boolean;
    emit(e: MarketEvent): void;
    reconnected(): void;
  }> = [];
  userStreams: Array<{ apiKey: string; closed: boolean; handlers: StreamHandlers<UserDataEvent> }> = [];

  marketStream(handlers: StreamHandlers<MarketEvent>): MarketStream {
    const topics = new Map<string, MarketTopic>();
    const record = {
      topics,
      closed: false,
      emit: (e: MarketEvent) => handlers.onEvent(e),
      reconnected: () => handlers.onState?.('open', { gap: true }),
    };
    this.marketStreams.push(record);
    return {
      add: (ts) => {
        for (const t of ts) topics.set(`${t.symbol}:${t.kind}:${t.interval ?? ''}`, t);
      },
      remove: (ts) => {
        for (const t of ts) topics.delete(`${t.symbol}:${t.kind}:${t.interval ?? ''}`);
      },
      get topics() {
        return [...topics.values()];
      },
      close: async () => {
        record.closed = true;
      },
    };
  }

  userDataStream(keys: ExchangeKeys, handlers: StreamHandlers<UserDataEvent>): UserDataStream {
    const record = { apiKey: keys.apiKey, closed: false, handlers };
    this.userStreams.push(record);
    return {
      listenKey: 'k',
      close: async () => {
        record.closed = true;
      },
    };
  }
}

let streams: RecordedStreams;
let published: Array<{ target: PushTarget; event: LiveEvent; id?: string }>;
let keys: Map<string, ExchangeKeys>;
let positions: string[];
/** The REST books the server asks for, in order (each taken from the front); none left: the call fails */
let snapshots: OrderBookSnapshot[];
let snapshotCalls: string[];
let live: LiveStreams;
let clock: ManualClock;

const socket = (userId: string, symbols?: string[]): BusConnection => ({
  userId,
  sessionId: 's',
  end() {},
  streams: new Set(),
  symbols: symbols ? new Set(symbols) : undefined,
  books: new Set(),
  watch: new Set(),
  candles: new Set(),
  send: () => true,
});

/** Symbols with an upstream market stream, from what the exchange side was asked */
const upstream = () =>
  [
    ...new Set(
      streams.marketStreams
        .filter((m) => !m.closed)
        .flatMap((m) => [...m.topics.values()].map((t) => t.symbol)),
    ),
  ].sort();

beforeEach(() => {
  clock = new ManualClock();
  streams = new RecordedStreams();
  published = [];
  keys = new Map([['alice', { apiKey: 'alice-key', secretKey: 'x' }]]);
  positions = [];
  snapshots = [];
  snapshotCalls = [];
  live = new LiveStreams({
    streams,
    depthSnapshot: async (environment, symbol, limit) => {
      snapshotCalls.push(`${environment}/${symbol}/${limit}`);
      const next = snapshots.shift();
      if (!next) throw new Error('no snapshot recorded');
      return next;
    },
    publish: async (target, event, options) => {
      published.push({ target, event, id: options?.id });
    },
    environmentOf: async () => 'testnet',
    keysFor: async ({ userId }) => keys.get(userId),
    openPositionSymbols: async () => positions,
    defaultSymbols: ['BTCUSDT', 'ETHUSDT'],
    isListed: async (symbol) => symbol !== 'NOPEUSDT',
    log: { warn() {}, info() {} },
    clock,
  });
});
afterEach(async () => {
  await live.close();
});

describe('market streams follow the sockets', () => {
  it('opens one upstream stream per symbol whatever the number of sockets, with ticker and mark price', async () => {
    live.added(socket('alice'));
    live.added(socket('bob'));
    live.added(socket('carol', ['SOLUSDT', 'BTCUSDT', 'NOPEUSDT']));
    await clock.advance(0);
    expect(streams.marketStreams).toHaveLength(1);
    // NOPEUSDT is not listed by the exchange: it never reaches the shared upstream connection
    expect(upstream()).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    expect(
      [...(streams.marketStreams[0]?.topics.values() ?? [])]
        .filter((t) => t.symbol === 'SOLUSDT')
        .map((t) => t.kind),
    ).toEqual(['ticker', 'markPrice']);
  });

  it(`stops a symbol's stream ${STREAM_LINGER_MS / 1000} s after its last socket, not before`, async () => {
    const a = socket('alice', ['SOLUSDT']);
    const b = socket('bob', ['SOLUSDT', 'BTCUSDT']);
    live.added(a);
    live.added(b);
    live.removed(b);
    await clock.advance(STREAM_LINGER_MS);
    // a still watches SOLUSDT; BTCUSDT had only b
    expect(upstream()).toEqual(['SOLUSDT']);
    live.removed(a);
    await clock.advance(STREAM_LINGER_MS - 1);
    expect(upstream()).toEqual(['SOLUSDT']);
    await clock.advance(1);
    expect(upstream()).toEqual([]);
    // No symbol left: the upstream connection itself is closed
    expect(streams.marketStreams[0]?.closed).toBe(true);
  });

  it('a socket coming back within the linger keeps the stream it left (a page reload)', async () => {
    const first = socket('alice', ['SOLUSDT']);
    live.added(first);
    live.removed(first);
    await clock.advance(STREAM_LINGER_MS / 2);
    live.added(socket('alice', ['SOLUSDT']));
    await clock.advance(STREAM_LINGER_MS * 2);
    expect(upstream()).toEqual(['SOLUSDT']);
    expect(streams.marketStreams).toHaveLength(1);
  });

  it('follows a changed symbol list, and pushes market events to the symbol with their event id', async () => {
    const c = socket('alice');
    live.added(c);
    expect(c.watch).toEqual(new Set(['BTCUSDT', 'ETHUSDT']));
    c.symbols = new Set(['SOLUSDT']);
    live.changed(c);
    expect(c.watch).toEqual(new Set(['SOLUSDT']));
    await clock.advance(STREAM_LINGER_MS);
    expect(upstream()).toEqual(['SOLUSDT']);
    streams.marketStreams[0]?.emit({
      type: 'markPrice',
      symbol: 'SOLUSDT',
      markPrice: '101.5',
      indexPrice: '101.4',
      fundingRate: '0.0001',
      nextFundingTime: 2,
      time: 1,
    });
    expect(published).toEqual([
      {
        target: { symbol: 'SOLUSDT' },
        event: {
          kind: 'markPrice',
          data: expect.objectContaining({ symbol: 'SOLUSDT', markPrice: '101.5', time: 1 }),
        },
        id: 'markPrice:SOLUSDT:1',
      },
    ]);
  });
});

describe('market streams follow the environment (issue 23)', () => {
  it('a mainnet user’s sockets watch mainnet’s market, marked so the bus sends it to mainnet sockets only', async () => {
    const mainnet = new RecordedStreams();
    const listed: string[] = [];
    const envLive = new LiveStreams({
      streams,
      marketStreamOf: (environment) =>
        environment === 'mainnet' ? (handlers) => mainnet.marketStream(handlers) : undefined,
      depthSnapshot: async () => {
        throw new Error('no book in this test');
      },
      publish: async (target, event, options) => {
        published.push({ target, event, id: options?.id });
      },
      // Carol is on mainnet, with a mainnet key
      environmentOf: async (userId) => (userId === 'carol' ? 'mainnet' : 'testnet'),
      keysFor: async ({ userId, environment }) =>
        userId === 'carol' && environment === 'mainnet'
          ? { apiKey: 'carol-key', secretKey: 'x', environment: 'mainnet' }
          : keys.get(userId),
      openPositionSymbols: async () => [],
      defaultSymbols: ['BTCUSDT'],
      isListed: async (symbol, environment) => {
        listed.push(`${environment}/${symbol}`);
        return true;
      },
      log: { warn() {}, info() {} },
      clock,
    });
    try {
      const testnetSocket = socket('alice');
      const mainnetSocket = socket('carol');
      envLive.added(testnetSocket);
      envLive.added(mainnetSocket);
      await clock.advance(0);
      expect(testnetSocket.environment).toBe('testnet');
      expect(mainnetSocket.environment).toBe('mainnet');
      expect(envLive.marketSymbolsOf('mainnet')).toEqual(['BTCUSDT']);
      expect(envLive.marketSymbolsOf('testnet')).toEqual(['BTCUSDT']);
      expect(listed).toContain('mainnet/BTCUSDT');
      mainnet.marketStreams[0]?.emit({
        type: 'ticker',
        symbol: 'BTCUSDT',
        lastPrice: '30000',
        priceChange: '0',
        openPrice: '30000',
        quoteVolume: '30000',
        priceChangePercent: '0',
        highPrice: '30000',
        lowPrice: '30000',
        volume: '1',
        time: 7,
      });
      expect(published.at(-1)).toMatchObject({
        target: { symbol: 'BTCUSDT', environment: 'mainnet' },
        id: 'mainnet:ticker:BTCUSDT:7',
      });
      // Carol leaves: mainnet's stream stops after the linger, testnet's stays for Alice
      envLive.removed(mainnetSocket);
      await clock.advance(STREAM_LINGER_MS);
      expect(envLive.marketSymbolsOf('mainnet')).toEqual([]);
      expect(mainnet.marketStreams[0]?.closed).toBe(true);
      expect(envLive.marketSymbolsOf('testnet')).toEqual(['BTCUSDT']);
    } finally {
      await envLive.close();
    }
  });
});

describe('candle streams', () => {
  /** A kline event of the 1m bar opening at 60 000, with close price `close` */
  const kline = (close: string, time: number, closed = false): MarketEvent => ({
    type: 'kline',
    symbol: 'SOLUSDT',
    interval: '1m',
    kline: {
      openTime: 60_000,
      open: '100',
      high: '110',
      low: '90',
      close,
      volume: '5',
      closeTime: 119_999,
      quoteVolume: '500',
      trades: 3,
    },
    closed,
    time,
  });
  /** Close prices of the candle pushes so far */
  const closes = () => published.map((p) => (p.event.kind === 'candle' ? p.event.data.close : undefined));

  it('opens one kline stream per (symbol, interval) and throttles the forming bar, the latest figures winning', async () => {
    const a = socket('alice', []);
    a.candles = new Set(['SOLUSDT|1m']);
    const b = socket('bob', []);
    b.candles = new Set(['SOLUSDT|1m', 'SOLUSDT|1h']);
    live.added(a);
    live.added(b);
    await clock.advance(0);
    expect(live.candleStreams).toEqual(['SOLUSDT@1h', 'SOLUSDT@1m']);
    const market = streams.marketStreams[0];
    market?.emit(kline('101', 1));
    market?.emit(kline('102', 2));
    market?.emit(kline('103', 3));
    // The first goes out at once, the rest wait and only the latest of them is sent
    expect(closes()).toEqual(['101']);
    await clock.advance(CANDLE_PUSH_MIN_MS - 1);
    expect(closes()).toEqual(['101']);
    await clock.advance(1);
    expect(closes()).toEqual(['101', '103']);
    expect(published[1]).toMatchObject({
      target: { symbol: 'SOLUSDT', interval: '1m' },
      id: 'candle:SOLUSDT:1m:60000:3',
    });
  });

  it('sends a closing bar at once and drops a held-back forming update of that bar', async () => {
    const a = socket('alice', []);
    a.candles = new Set(['SOLUSDT|1m']);
    live.added(a);
    await clock.advance(0);
    const market = streams.marketStreams[0];
    market?.emit(kline('101', 1));
    market?.emit(kline('104', 2));
    market?.emit(kline('105', 3, true));
    await clock.advance(CANDLE_PUSH_MIN_MS * 2);
    expect(published.map((p) => p.event.data)).toEqual([
      expect.objectContaining({ close: '101', closed: false }),
      expect.objectContaining({ close: '105', closed: true, openTime: 60_000, closeTime: 119_999 }),
    ]);
    // Unwatched, the kline stream lingers like the others and then stops
    a.candles = new Set();
    live.changed(a);
    await clock.advance(STREAM_LINGER_MS);
    expect(live.candleStreams).toEqual([]);
  });
});

describe('order books follow the sockets', () => {
  it("a socket's books get their diff and trade streams upstream, synced from a snapshot, and stop after the linger", async () => {
    const a = socket('alice', []);
    a.books = new Set(['SOLUSDT']);
    live.added(a);
    await clock.advance(0);
    const market = streams.marketStreams[0];
    expect([...(market?.topics.values() ?? [])].map((t) => t.kind).sort()).toEqual(['aggTrade', 'depth']);
    expect(live.bookSymbolsOf('testnet')).toEqual(['SOLUSDT']);
    snapshots.push({ lastUpdateId: 10, time: 10, bids: [['100.00', '1']], asks: [['100.01', '1']] });
    market?.emit({
      type: 'depth',
      symbol: 'SOLUSDT',
      firstUpdateId: 9,
      finalUpdateId: 11,
      previousFinalUpdateId: 8,
      bids: [],
      asks: [],
      time: 11,
    });
    await clock.advance(0);
    expect(snapshotCalls).toEqual(['testnet/SOLUSDT/1000']);
    expect(published.filter((p) => p.event.kind === 'book').map((p) => p.target)).toEqual([
      { symbol: 'SOLUSDT', book: true },
    ]);
    // A reconnect of the market connection unsyncs the book: the next diff asks for another snapshot
    market?.reconnected();
    market?.emit({
      type: 'depth',
      symbol: 'SOLUSDT',
      firstUpdateId: 12,
      finalUpdateId: 12,
      previousFinalUpdateId: 11,
      bids: [],
      asks: [],
      time: 12,
    });
    await clock.advance(0);
    expect(snapshotCalls).toHaveLength(2);

    a.books = new Set();
    live.changed(a);
    await clock.advance(STREAM_LINGER_MS);
    expect(live.bookSymbolsOf('testnet')).toEqual([]);
    expect(live.books.recentTrades('testnet', 'SOLUSDT')).toBeUndefined();
  });
});

describe('account streams follow the users', () => {
  it('runs one user-data stream per user with keys, none for a user without, and stops it after the linger', async () => {
    const a1 = socket('alice');
    const a2 = socket('alice');
    live.added(a1);
    live.added(a2);
    live.added(socket('bob'));
    await clock.advance(0);
    expect(streams.userStreams.map((u) => u.apiKey)).toEqual(['alice-key']);
    live.removed(a1);
    await clock.advance(STREAM_LINGER_MS);
    expect(streams.userStreams[0]?.closed).toBe(false);
    live.removed(a2);
    await clock.advance(STREAM_LINGER_MS);
    expect(streams.userStreams[0]?.closed).toBe(true);
    expect(live.streamingUsers).toEqual([]);
  });

  it('watches the symbols of open positions, from the start and as they open and close', async () => {
    positions = ['XRPUSDT'];
    const c = socket('alice', ['SOLUSDT']);
    live.added(c);
    await clock.advance(0);
    expect(c.watch).toEqual(new Set(['SOLUSDT', 'XRPUSDT']));
    const account = (symbol: string, amount: string): UserDataEvent => ({
      type: 'account',
      reason: 'ORDER',
      time: 5,
      balances: [{ asset: 'USDT', walletBalance: '990', crossWalletBalance: '990', balanceChange: '0' }],
      positions: [
        { symbol, positionSide: 'BOTH', amount, entryPrice: '1', unrealizedPnl: '0', marginType: 'cross' },
      ],
    });
    streams.userStreams[0]?.handlers.onEvent(account('ADAUSDT', '10'));
    expect(c.watch).toEqual(new Set(['SOLUSDT', 'XRPUSDT', 'ADAUSDT']));
    expect(published.map((p) => [p.target, p.event.kind, p.id])).toEqual([
      ['alice', 'balance', 'balance:USDT:ORDER:5'],
      ['alice', 'position', 'position:ADAUSDT:BOTH:ORDER:5'],
    ]);
    streams.userStreams[0]?.handlers.onEvent(account('XRPUSDT', '0'));
    expect(c.watch).toEqual(new Set(['SOLUSDT', 'ADAUSDT']));
  });

  it('pushes order updates, conditional ones as orders marked algo, with ids that survive duplicates', async () => {
    live.added(socket('alice'));
    await clock.advance(0);
    const handlers = streams.userStreams[0]?.handlers;
    handlers?.onEvent({
      type: 'algoOrder',
      symbol: 'SOLUSDT',
      algoId: '9007199254740993',
      clientAlgoId: 'stop-1',
      orderType: 'STOP_MARKET',
      side: 'SELL',
      positionSide: 'BOTH',
      status: 'TRIGGERED',
      triggerPrice: '90',
      price: '0',
      quantity: '1',
      reduceOnly: true,
      closePosition: false,
      triggeredOrderId: '77',
      time: 8,
    });
    expect(published).toEqual([
      {
        target: 'alice',
        event: {
          kind: 'order',
          data: expect.objectContaining({
            orderId: '9007199254740993',
            clientOrderId: 'stop-1',
            status: 'TRIGGERED',
            algo: true,
            triggeredOrderId: '77',
          }),
        },
        id: 'algo:9007199254740993:TRIGGERED:8',
      },
    ]);
  });

  it('after a reconnect (events may be lost) tells the user to refetch balances and positions', async () => {
    live.added(socket('alice'));
    await clock.advance(0);
    const handlers = streams.userStreams[0]?.handlers;
    handlers?.onState?.('open', { gap: false });
    expect(published).toEqual([]);
    handlers?.onState?.('open', { gap: true });
    expect(published.map((p) => [p.target, p.event.kind, p.event.data])).toEqual([
      ['alice', 'balance', expect.objectContaining({ asset: '*', reason: 'RESYNC' })],
      ['alice', 'position', expect.objectContaining({ symbol: '*', reason: 'RESYNC' })],
    ]);
  });

  it('restarts the account stream with the new keys when the user connects another account', async () => {
    live.added(socket('alice'));
    await clock.advance(0);
    keys.set('alice', { apiKey: 'alice-new', secretKey: 'y' });
    await live.refreshUser('alice');
    expect(streams.userStreams.map((u) => [u.apiKey, u.closed])).toEqual([
      ['alice-key', true],
      ['alice-new', false],
    ]);
  });
});
