import type { ExchangeTargetKind, TradingEnvironment } from '@kestrel/contracts';
import { z } from 'zod';

export const EXCHANGE_ENVS = ['simulator', 'testnet', 'mainnet'] as const;
export type ExchangeEnv = (typeof EXCHANGE_ENVS)[number];

export interface ExchangeEndpoints {
  env: ExchangeEnv;
  /** fapi REST base */
  restUrl: string;
  /** Stream base (routed /market, /public, /private below it) */
  wsUrl: string;
  /** Spot/wallet host for /sapi key checks; testnet has none */
  walletUrl?: string;
  /** REQUEST_WEIGHT a minute the exchange allows this server's IP (Binance: 2400); shared by the weight budget (`weight-budget.ts`) */
  weightLimit: number;
}

/** Port of the simulator that the start command runs beside the server (API port + 100 unless set) */
export const DEFAULT_SIM_PORT = 8100;
/** Binance's REQUEST_WEIGHT per IP per minute */
export const BINANCE_WEIGHT_LIMIT = 2400;

const url = z.url({ protocol: /^(https?|wss?)$/, error: 'must be an http(s) or ws(s) URL' });

/**
 * Exchange endpoints from the environment: KESTREL_EXCHANGE_ENV (simulator by default, the embedded setup),
 * KESTREL_EXCHANGE_BASE_URL / _WS_URL / _WALLET_URL override the environment's defaults, KESTREL_SIM_PORT places the
 * local simulator, KESTREL_EXCHANGE_WEIGHT_LIMIT is the minute's request weight (only a simulator started with the
 * same `--weight-limit` grants more than Binance's 2400).
 */
export function resolveExchangeEndpoints(env: NodeJS.ProcessEnv): ExchangeEndpoints {
  const name = z
    .enum(EXCHANGE_ENVS, { error: 'KESTREL_EXCHANGE_ENV must be simulator, testnet or mainnet' })
    .parse(env.KESTREL_EXCHANGE_ENV || 'simulator');
  const simPort = z.coerce
    .number({ error: 'KESTREL_SIM_PORT must be a port number' })
    .int()
    .min(1)
    .max(65535)
    .parse(env.KESTREL_SIM_PORT || DEFAULT_SIM_PORT);
  const defaults: Record<ExchangeEnv, Omit<ExchangeEndpoints, 'env' | 'weightLimit'>> = {
    mainnet: {
      restUrl: 'https://fapi.binance.com',
      wsUrl: 'wss://fstream.binance.com',
      walletUrl: 'https://api.binance.com',
    },
    testnet: { restUrl: 'https://demo-fapi.binance.com', wsUrl: 'wss://fstream.binancefuture.com' },
    // The simulator serves /sapi on its one host
    simulator: {
      restUrl: `http://127.0.0.1:${simPort}`,
      wsUrl: `ws://127.0.0.1:${simPort}`,
      walletUrl: `http://127.0.0.1:${simPort}`,
    },
  };
  const weightLimit = z.coerce
    .number({ error: 'KESTREL_EXCHANGE_WEIGHT_LIMIT must be a whole number of request weight a minute' })
    .int({ error: 'KESTREL_EXCHANGE_WEIGHT_LIMIT must be a whole number of request weight a minute' })
    .min(1, { error: 'KESTREL_EXCHANGE_WEIGHT_LIMIT must be at least 1' })
    .parse(env.KESTREL_EXCHANGE_WEIGHT_LIMIT || BINANCE_WEIGHT_LIMIT);
  const d = defaults[name];
  const override = (key: string, fallback: string | undefined) => {
    const v = env[key];
    if (!v) return fallback;
    const parsed = url.safeParse(v);
    if (!parsed.success) throw new Error(`${key} ${parsed.error.issues[0]?.message ?? 'is not a URL'}`);
    return parsed.data.replace(/\/+$/, '');
  };
  const restUrl = override('KESTREL_EXCHANGE_BASE_URL', d.restUrl) as string;
  return {
    env: name,
    restUrl,
    weightLimit,
    // A REST override on the simulator moves its streams with it (same port, ws scheme)
    wsUrl: override(
      'KESTREL_EXCHANGE_WS_URL',
      name === 'simulator' && env.KESTREL_EXCHANGE_BASE_URL ? restUrl.replace(/^http/, 'ws') : d.wsUrl,
    ) as string,
    // A REST override on the simulator moves its wallet host with it
    walletUrl: override(
      'KESTREL_EXCHANGE_WALLET_URL',
      name === 'simulator' && env.KESTREL_EXCHANGE_BASE_URL ? restUrl : d.walletUrl,
    ),
  };
}

/** One environment's exchange as this server reaches it, or why it cannot */
export type ExchangeTarget =
  | {
      environment: TradingEnvironment;
      configured: true;
      kind: ExchangeTargetKind;
      /** What the top bar shows */
      label: string;
      endpoints: ExchangeEndpoints;
    }
  | { environment: TradingEnvironment; configured: false; reason: string };

export type ExchangeTargets = Record<TradingEnvironment, ExchangeTarget>;

/**
 * The name an environment's exchange is known by (simulator, testnet or mainnet): the kline cache keys candles by
 * it and a backtest keeps it, so two exchanges' candles never mix. An environment this server does not reach keeps
 * its own name (whatever reads it then fails at its first exchange call, saying why)
 */
export function exchangeNameOf(targets: ExchangeTargets, environment: TradingEnvironment): string {
  const target = targets[environment];
  return target.configured ? target.endpoints.env : environment;
}

export const MAINNET_NOT_CONFIGURED =
  'Mainnet is not configured on this server: real-money trading is off until its operator starts Kestrel with ' +
  'KESTREL_MAINNET=1';

const TARGET_LABELS: Record<ExchangeTargetKind, string> = {
  simulator: 'Simulator',
  'binance-testnet': 'Testnet',
  'binance-mainnet': 'LIVE mainnet',
};

const on = (v: string | undefined) => v === '1' || v === 'true' || v === 'on' || v === 'yes';

/**
 * The exchange behind each of the spec's two environments (issue 23). `testnet` is the embedded simulator unless
 * KESTREL_TESTNET=1 makes it Binance's futures testnet; `mainnet` exists only when KESTREL_MAINNET=1. Each has its
 * own REST, stream and wallet URLs: KESTREL_TESTNET_BASE_URL / _WS_URL / _WALLET_URL and KESTREL_MAINNET_… override
 * them; a REST override alone moves the stream and wallet hosts to the same host (so a stand-in never leaks a key
 * or a stream to the real Binance). The older KESTREL_EXCHANGE_ENV (simulator | testnet | mainnet) still works:
 * testnet means KESTREL_TESTNET=1, mainnet means KESTREL_MAINNET=1, and KESTREL_EXCHANGE_BASE_URL / _WS_URL /
 * _WALLET_URL then override the environment it names; `notices` says so at start.
 */
export function resolveExchangeTargets(env: NodeJS.ProcessEnv): {
  targets: ExchangeTargets;
  notices: string[];
} {
  const legacy = z
    .enum(EXCHANGE_ENVS, { error: 'KESTREL_EXCHANGE_ENV must be simulator, testnet or mainnet' })
    .parse(env.KESTREL_EXCHANGE_ENV || 'simulator');
  const notices: string[] = [];
  if (env.KESTREL_EXCHANGE_ENV && legacy !== 'simulator') {
    notices.push(
      `KESTREL_EXCHANGE_ENV=${legacy} is read as KESTREL_${legacy.toUpperCase()}=1: each user now chooses testnet ` +
        'or mainnet in the top bar (testnet by default). Set that variable instead',
    );
  }
  const legacyFor: TradingEnvironment = legacy === 'mainnet' ? 'mainnet' : 'testnet';
  const endpointsFor = (environment: TradingEnvironment, name: ExchangeEnv): ExchangeEndpoints => {
    const prefix = environment === 'testnet' ? 'KESTREL_TESTNET' : 'KESTREL_MAINNET';
    const pick = (suffix: string) =>
      env[`${prefix}_${suffix}`] ||
      (legacyFor === environment ? env[`KESTREL_EXCHANGE_${suffix}`] : undefined) ||
      undefined;
    const base = resolveExchangeEndpoints({
      KESTREL_EXCHANGE_ENV: name,
      KESTREL_SIM_PORT: env.KESTREL_SIM_PORT,
      KESTREL_EXCHANGE_WEIGHT_LIMIT: env.KESTREL_EXCHANGE_WEIGHT_LIMIT,
    });
    const override = (suffix: string, fallback: string | undefined) => {
      const key = env[`${prefix}_${suffix}`] ? `${prefix}_${suffix}` : `KESTREL_EXCHANGE_${suffix}`;
      const v = pick(suffix);
      if (!v) return fallback;
      const parsed = url.safeParse(v);
      if (!parsed.success) throw new Error(`${key} ${parsed.error.issues[0]?.message ?? 'is not a URL'}`);
      return parsed.data.replace(/\/+$/, '');
    };
    const restUrl = override('BASE_URL', base.restUrl) as string;
    const movedRest = pick('BASE_URL') !== undefined;
    return {
      ...base,
      restUrl,
      wsUrl: override('WS_URL', movedRest ? restUrl.replace(/^http/, 'ws') : base.wsUrl) as string,
      walletUrl: override('WALLET_URL', movedRest ? restUrl : base.walletUrl),
    };
  };
  const testnetKind: ExchangeTargetKind =
    on(env.KESTREL_TESTNET) || legacy === 'testnet' ? 'binance-testnet' : 'simulator';
  const testnet: ExchangeTarget = {
    environment: 'testnet',
    configured: true,
    kind: testnetKind,
    label: TARGET_LABELS[testnetKind],
    endpoints: endpointsFor('testnet', testnetKind === 'simulator' ? 'simulator' : 'testnet'),
  };
  const mainnet: ExchangeTarget =
    on(env.KESTREL_MAINNET) || legacy === 'mainnet'
      ? {
          environment: 'mainnet',
          configured: true,
          kind: 'binance-mainnet',
          label: TARGET_LABELS['binance-mainnet'],
          endpoints: endpointsFor('mainnet', 'mainnet'),
        }
      : { environment: 'mainnet', configured: false, reason: MAINNET_NOT_CONFIGURED };
  return { targets: { testnet, mainnet }, notices };
}
