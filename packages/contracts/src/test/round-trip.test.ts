import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BacktestDetailResponseSchema } from '../backtest';
import {
  AuthResponseSchema,
  CredentialsStatusResponseSchema,
  ErrorResponseSchema,
  FuturesOrderResponseSchema,
  KlinesResponseSchema,
  RuntimeConfigSchema,
  SessionListResponseSchema,
  StreamsSubscribeParamsSchema,
} from '../index';

/**
 * What an answer goes through between the two ends: the server encodes it with the route's response schema
 * (fastify-type-provider-zod's serializer: `z.safeEncode`, then `JSON.stringify`), the browser parses the JSON text
 * with the same schema. A response schema with a one-way `.transform` or a value JSON cannot carry (a Date, NaN)
 * breaks here.
 */
function serverToBrowser<S extends z.ZodType>(schema: S, answer: z.output<S>): z.output<S> {
  const text = JSON.stringify(z.encode(schema, answer));
  return schema.parse(JSON.parse(text));
}

const user = {
  id: '0b7c1c8e-4a0f-4d2e-9f57-1d6f0f3f4a11',
  email: 'ann@example.com',
  name: null,
  created_at: '2026-01-02T03:04:05.000Z',
};
const metrics = {
  initialBalance: 10_000,
  finalEquity: 10_512.25,
  totalReturn: 0.0512,
  annualisedReturn: 0.21,
  maxDrawdown: 0.034,
  sharpe: 1.4,
  sortino: 2.1,
  calmar: 6.2,
  tradeCount: 1,
  winRate: 1,
  profitFactor: null,
  exposure: 0.4,
  feesPaid: 3.2,
  fundingPaid: -0.4,
  liquidations: 0,
  bars: 100,
};

const completedBacktest: z.output<typeof BacktestDetailResponseSchema> = {
  success: true,
  data: {
    id: 'bt-1',
    strategy: 'ema-cross',
    strategyName: 'EMA cross',
    symbol: 'BTCUSDT',
    interval: '1h',
    startTime: 1_700_000_000_000,
    endTime: 1_700_360_000_000,
    status: 'completed',
    progress: 1,
    createdAt: 1_700_400_000_000,
    finishedAt: 1_700_400_005_000,
    error: null,
    metrics,
    request: {
      strategy: 'ema-cross',
      params: { fast: 12, slow: 26 },
      symbol: 'BTCUSDT',
      interval: '1h',
      startTime: 1_700_000_000_000,
      endTime: 1_700_360_000_000,
      costs: {
        initialBalance: 10_000,
        leverage: 3,
        marginMode: 'isolated',
        makerFeeRate: 0.0002,
        takerFeeRate: 0.0005,
        slippageBps: 1,
        funding: false,
      },
    },
    equity: [{ time: 1_700_000_000_000, equity: 10_000, drawdown: 0 }],
    trades: [
      {
        id: 1,
        side: 'long',
        entryTime: 1_700_000_000_000,
        entryPrice: 65_000,
        exitTime: 1_700_036_000_000,
        exitPrice: 66_000,
        quantity: 0.5,
        pnl: 496.4,
        grossPnl: 500,
        fees: 3.2,
        funding: 0.4,
        exitReason: 'trailing-stop',
      },
    ],
    markers: [{ time: 1_700_000_000_000, price: 65_000, kind: 'entry', side: 'long' }],
    bracketsSource: 'default',
  },
};

const samples: [string, z.ZodType, unknown][] = [
  [
    'an auth answer',
    AuthResponseSchema,
    {
      success: true,
      access_token: 'a.b.c',
      refresh_token: 'd.e.f',
      token_type: 'bearer',
      expires_in: 900,
      user,
      message: 'Signed in',
    },
  ],
  [
    'the session list',
    SessionListResponseSchema,
    {
      success: true,
      sessions: [
        {
          id: user.id,
          created_at: user.created_at,
          last_used_at: user.created_at,
          expires_at: '2026-02-02T03:04:05.000Z',
          user_agent: null,
          ip: '127.0.0.1',
          current: true,
        },
      ],
    },
  ],
  [
    'an error answer with issues',
    ErrorResponseSchema,
    {
      success: false,
      detail: 'Password must be at least 8 characters',
      message: 'Password must be at least 8 characters',
      code: 'VALIDATION_ERROR',
      issues: [{ path: 'body.password', message: 'Password must be at least 8 characters' }],
    },
  ],
  [
    'klines',
    KlinesResponseSchema,
    {
      success: true,
      data: {
        symbol: 'BTCUSDT',
        interval: '1h',
        klines: [
          {
            openTime: 1_700_000_000_000,
            open: '65000.10',
            high: '65100',
            low: '64900.5',
            close: '65050',
            volume: '12.345',
            closeTime: 1_700_003_599_999,
            quoteVolume: '803000.1',
            trades: 42,
          },
        ],
      },
    },
  ],
  [
    'a conditional order',
    FuturesOrderResponseSchema,
    {
      success: true,
      message: 'Order placed',
      data: {
        orderId: '9007199254740993',
        clientOrderId: 'web-1',
        kind: 'conditional',
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'TRAILING_STOP_MARKET',
        status: 'NEW',
        price: '0',
        averagePrice: '0',
        quantity: '0.01',
        executedQuantity: '0',
        timeInForce: 'GTC',
        reduceOnly: true,
        positionSide: 'BOTH',
        triggerPrice: '0',
        workingType: 'CONTRACT_PRICE',
        closePosition: false,
        activationPrice: '66000',
        callbackRate: '1.5',
        triggeredOrderId: null,
        goodTillDate: null,
        updatedAt: 1_700_000_000_000,
      },
    },
  ],
  [
    'the credentials status',
    CredentialsStatusResponseSchema,
    {
      success: true,
      data: { exchange: 'binance', configured: true, connectivity_status: 'connected' },
      message: 'Connected',
    },
  ],
  ['a completed backtest', BacktestDetailResponseSchema, completedBacktest],
];

describe('an answer the server sends reaches the browser unchanged', () => {
  it.each(samples)('%s', (_, schema, answer) => {
    expect(serverToBrowser(schema, answer)).toEqual(answer);
  });

  it('a figure JSON cannot carry is refused by the server instead of reaching the browser as null', () => {
    const data = { ...completedBacktest.data, metrics: { ...metrics, sharpe: Number.NaN } };
    const broken = { ...completedBacktest, data };
    expect(z.safeEncode(BacktestDetailResponseSchema, broken).success).toBe(false);
  });
});

describe('RuntimeConfigSchema (the shell’s config.json)', () => {
  const config = {
    apiBaseUrl: 'http://127.0.0.1:8000',
    socketBaseUrl: 'ws://127.0.0.1:8000/ws',
    remotes: {
      dashboard: 'http://127.0.0.1:3001/mf-manifest.json',
      bots: 'http://127.0.0.1:3002/mf-manifest.json',
      exchange_connect: 'http://127.0.0.1:3003/mf-manifest.json',
      account: 'http://127.0.0.1:3004/mf-manifest.json',
    },
  };

  it('waits 10 s for a remote unless the deployment says otherwise', () => {
    expect(RuntimeConfigSchema.parse(config).remoteLoadTimeoutMs).toBe(10_000);
    expect(RuntimeConfigSchema.parse({ ...config, remoteLoadTimeoutMs: 2_000 }).remoteLoadTimeoutMs).toBe(
      2_000,
    );
  });

  it('wants a ws: or wss: socket URL and a manifest URL for each remote, no more', () => {
    expect(
      RuntimeConfigSchema.safeParse({ ...config, socketBaseUrl: 'http://127.0.0.1:8000/ws' }).success,
    ).toBe(false);
    const { account: _, ...threeRemotes } = config.remotes;
    expect(RuntimeConfigSchema.safeParse({ ...config, remotes: threeRemotes }).success).toBe(false);
    const unknown = { ...config.remotes, billing: config.remotes.dashboard };
    expect(RuntimeConfigSchema.safeParse({ ...config, remotes: unknown }).success).toBe(false);
  });
});

describe('StreamsSubscribeParamsSchema (streams/subscribe on the socket)', () => {
  it('upper-cases the watched symbols and takes at most 50', () => {
    expect(StreamsSubscribeParamsSchema.parse({ streams: ['ticker'], symbols: ['btcusdt'] })).toEqual({
      streams: ['ticker'],
      symbols: ['BTCUSDT'],
    });
    const symbols = Array.from({ length: 51 }, (_, i) => `S${i}USDT`);
    expect(StreamsSubscribeParamsSchema.safeParse({ streams: [], symbols }).error?.issues[0]?.message).toBe(
      'at most 50 symbols',
    );
  });
});
