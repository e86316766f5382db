import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import {
  type ExchangeEndpoints,
  type ExchangeTargets,
  resolveExchangeTargets,
} from './core/exchange/exchange-config';
import { type PrivateAllowance, parsePrivateAllowance } from './core/notifications/webhook-target';

const ConfigSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65535).default(8000),
  /** Origins of the shell allowed by CORS, comma separated */
  corsOrigins: z
    .string()
    .default('http://127.0.0.1:3000,http://localhost:3000')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Folder of the embedded database and the generated master key; relative paths resolve against cwd */
  dataDir: z.string().min(1).default('.data'),
  /** PostgreSQL connection string; when set, PGlite is not used */
  databaseUrl: z
    .string()
    .refine((s) => /^postgres(ql)?:\/\//.test(s), { error: 'must start with postgres:// or postgresql://' })
    .optional(),
  /**
   * Folder of the generated vault and token keys (`vault.key`, `token.key`, 0600); outside the data folder, so a copy
   * of the data folder (a backup, a stolen disk image of the database volume) opens no secret and forges no login
   */
  keysDir: z.string().min(1),
  /** The vault key(s), base64 of 32 bytes, current first; when unset `vault.key` in the keys folder is used */
  masterKey: z.string().optional(),
  /** The token-signing key(s), base64 of 32 bytes, current first; when unset `token.key` in the keys folder */
  tokenKey: z.string().optional(),
  /** Symbols whose ticker and mark price are pushed to sockets that did not choose their own, comma separated */
  liveSymbols: z
    .string()
    .default('BTCUSDT,ETHUSDT')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().regex(/^[A-Z0-9]{2,20}$/, {
          error: 'KESTREL_LIVE_SYMBOLS must be symbols such as BTCUSDT,ETHUSDT',
        }),
      ),
    ),
  /** Backtests run at once, each on its own worker thread (the rest wait queued) */
  backtestConcurrency: z.coerce
    .number({ error: 'KESTREL_BACKTEST_CONCURRENCY must be a number' })
    .int('KESTREL_BACKTEST_CONCURRENCY must be a whole number')
    .min(1, 'KESTREL_BACKTEST_CONCURRENCY must be at least 1')
    .max(64, 'KESTREL_BACKTEST_CONCURRENCY must be at most 64')
    .default(1),
  /** A request's headers must arrive within this */
  headersTimeoutMs: z.coerce
    .number({ error: 'KESTREL_HEADERS_TIMEOUT_MS must be a number of milliseconds' })
    .int('KESTREL_HEADERS_TIMEOUT_MS must be a whole number of milliseconds')
    .min(100, 'KESTREL_HEADERS_TIMEOUT_MS must be at least 100')
    .max(600_000, 'KESTREL_HEADERS_TIMEOUT_MS must be at most 600_000')
    .default(10_000),
  /** The whole request, body included, must arrive within this (the body deadline) */
  requestTimeoutMs: z.coerce
    .number({ error: 'KESTREL_REQUEST_TIMEOUT_MS must be a number of milliseconds' })
    .int('KESTREL_REQUEST_TIMEOUT_MS must be a whole number of milliseconds')
    .min(100, 'KESTREL_REQUEST_TIMEOUT_MS must be at least 100')
    .max(3_600_000, 'KESTREL_REQUEST_TIMEOUT_MS must be at most 3_600_000')
    .default(30_000),
  /** A connection silent both ways this long is closed (upgraded sockets have their own heartbeat) */
  idleTimeoutMs: z.coerce
    .number({ error: 'KESTREL_IDLE_TIMEOUT_MS must be a number of milliseconds' })
    .int('KESTREL_IDLE_TIMEOUT_MS must be a whole number of milliseconds')
    .min(1_000, 'KESTREL_IDLE_TIMEOUT_MS must be at least 1_000')
    .max(3_600_000, 'KESTREL_IDLE_TIMEOUT_MS must be at most 3_600_000')
    .default(120_000),
  /** Open connections one client address may hold at once; more are closed on arrival */
  maxConnectionsPerIp: z.coerce
    .number({ error: 'KESTREL_MAX_CONNECTIONS_PER_IP must be a number' })
    .int('KESTREL_MAX_CONNECTIONS_PER_IP must be a whole number')
    .min(1, 'KESTREL_MAX_CONNECTIONS_PER_IP must be at least 1')
    .max(100_000, 'KESTREL_MAX_CONNECTIONS_PER_IP must be at most 100000')
    .default(256),
  /** Most of the exchange's minute request weight one user may spend on reads, as a share of it (0.4 = 960 of 2400) */
  exchangeUserShare: z.coerce
    .number({ error: 'KESTREL_EXCHANGE_USER_SHARE must be a number between 0 and 1' })
    .gt(0, 'KESTREL_EXCHANGE_USER_SHARE must be above 0')
    .max(0.8, 'KESTREL_EXCHANGE_USER_SHARE must be at most 0.8 (the rest is kept for trading calls)')
    .default(0.4),
  /** Accounts one client address may create in an hour (every sign-up counts, refused ones too) */
  signupsPerIpHour: z.coerce
    .number({ error: 'KESTREL_SIGNUPS_PER_IP_HOUR must be a number' })
    .int('KESTREL_SIGNUPS_PER_IP_HOUR must be a whole number')
    .min(1, 'KESTREL_SIGNUPS_PER_IP_HOUR must be at least 1')
    .default(10),
  /**
   * Which proxies to believe about the client's address (X-Forwarded-For): unset trusts none (the TCP peer is the
   * client); a number is how many proxy hops stand in front; otherwise a comma list of addresses or CIDRs of the
   * proxies (or proxy-addr's names: loopback, linklocal, uniquelocal). Behind a TLS proxy without it, every user
   * shares the proxy's address and one user's failed sign-ins would lock out all of them
   */
  trustProxy: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx): number | string[] | boolean => {
      if (!v) return false;
      if (/^\d+$/.test(v)) return Number(v);
      const list = v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      const bad = list.find((x) => !/^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/\d{1,3})?)$/.test(x));
      if (bad !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'KESTREL_TRUST_PROXY must be a hop count or a comma list of proxy addresses or CIDRs',
        });
        return z.NEVER;
      }
      return list;
    }),
  /** The account recorder's timer (equity snapshots each minute, income sync): on unless `off` */
  accountRecorder: z
    .enum(['on', 'off'], { error: 'KESTREL_ACCOUNT_RECORDER must be on or off' })
    .default('on')
    .transform((v) => v === 'on'),
  /** Webhooks may reach private, loopback and link-local addresses (SSRF guard off): `1` for tests or a home lab */
  webhooksAllowPrivate: z
    .enum(['0', '1'], { error: 'KESTREL_WEBHOOKS_ALLOW_PRIVATE must be 0 or 1' })
    .default('0')
    .transform((v) => v === '1'),
  /**
   * Private hosts webhooks may reach with the guard on: a comma list of host names, addresses and CIDR ranges
   * (`homeassistant.lan,192.168.1.0/24`), for a LAN automation; unset: none. Every other private address stays refused
   */
  webhooksAllowHosts: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx): PrivateAllowance | undefined => {
      if (!v) return undefined;
      try {
        return parsePrivateAllowance(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
        return z.NEVER;
      }
    }),
  /**
   * Agents' LLM reviewers may call private, loopback and link-local addresses (SSRF guard off): `1` for a local
   * Ollama or vLLM, or tests
   */
  llmAllowPrivate: z
    .enum(['0', '1'], { error: 'KESTREL_LLM_ALLOW_PRIVATE must be 0 or 1' })
    .default('0')
    .transform((v) => v === '1'),
  /**
   * How often every stored exchange key is checked again (permissions as on save); a key the exchange now refuses
   * is marked and no longer opens positions. `0` turns the schedule off
   */
  keyRecheckMs: z.coerce
    .number({ error: 'KESTREL_KEY_RECHECK_MS must be a number of milliseconds' })
    .int('KESTREL_KEY_RECHECK_MS must be a whole number of milliseconds')
    .refine((v) => v === 0 || v >= 60_000, {
      error: 'KESTREL_KEY_RECHECK_MS must be 0 (off) or at least 60000',
    })
    .default(6 * 60 * 60_000),
  /**
   * Live sockets one user may hold open on one server instance; one more is refused (close 4429) and the open ones
   * are left alone
   */
  maxSocketsPerUser: z.coerce
    .number({ error: 'KESTREL_MAX_SOCKETS_PER_USER must be a number' })
    .int('KESTREL_MAX_SOCKETS_PER_USER must be a whole number')
    .min(1, 'KESTREL_MAX_SOCKETS_PER_USER must be at least 1')
    .max(10_000, 'KESTREL_MAX_SOCKETS_PER_USER must be at most 10000')
    .default(20),
  /** Backtests and optimisation jobs one user may create in any rolling hour (both kinds counted together) */
  jobsPerHour: z.coerce
    .number({ error: 'KESTREL_JOBS_PER_HOUR must be a number' })
    .int('KESTREL_JOBS_PER_HOUR must be a whole number')
    .min(1, 'KESTREL_JOBS_PER_HOUR must be at least 1')
    .default(200),
  /** Backtests and optimisation jobs of one user queued or running at once */
  jobsQueued: z.coerce
    .number({ error: 'KESTREL_JOBS_QUEUED must be a number' })
    .int('KESTREL_JOBS_QUEUED must be a whole number')
    .min(1, 'KESTREL_JOBS_QUEUED must be at least 1')
    .default(20),
  /** Failures in a row (timeouts, 5xx, refused connections) after which calls to an exchange host are refused */
  exchangeBreakerFailures: z.coerce
    .number({ error: 'KESTREL_EXCHANGE_BREAKER_FAILURES must be a number' })
    .int('KESTREL_EXCHANGE_BREAKER_FAILURES must be a whole number')
    .min(1, 'KESTREL_EXCHANGE_BREAKER_FAILURES must be at least 1')
    .default(5),
  /** How long calls to a failing exchange host are refused at once before one probe is let through */
  exchangeBreakerCoolDownMs: z.coerce
    .number({ error: 'KESTREL_EXCHANGE_BREAKER_COOLDOWN_MS must be a number of milliseconds' })
    .int('KESTREL_EXCHANGE_BREAKER_COOLDOWN_MS must be a whole number of milliseconds')
    .min(100, 'KESTREL_EXCHANGE_BREAKER_COOLDOWN_MS must be at least 100')
    .max(600_000, 'KESTREL_EXCHANGE_BREAKER_COOLDOWN_MS must be at most 600000')
    .default(15_000),
  /**
   * The operator's Telegram bot, as BotFather gives it (`<bot id>:<secret>`); unset: no Telegram channel. One bot for
   * the whole server, never per user. A secret: never logged, and the Bot API puts it in every request's path, so no
   * request URL to Telegram reaches a log line either
   */
  telegramBotToken: z
    .string()
    .trim()
    .regex(/^\d+:[A-Za-z0-9_-]+$/, {
      error: 'KESTREL_TELEGRAM_BOT_TOKEN must be a bot token as BotFather gives it (<bot id>:<secret>)',
    })
    .optional(),
  /** The Bot API's base URL (a stand-in's in tests and the e2e suite) */
  telegramApiUrl: z
    .string()
    .trim()
    .default('https://api.telegram.org')
    .refine((v) => /^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(v), {
      error: 'KESTREL_TELEGRAM_API_URL must be an http:// or https:// URL',
    })
    .transform((v) => v.replace(/\/+$/, '')),
});
export type ServerConfig = z.infer<typeof ConfigSchema> & {
  /** The default environment's (testnet's) exchange: public market data and the status page */
  exchange: ExchangeEndpoints;
  /** The exchange behind each trading environment (`exchange-config.ts` `resolveExchangeTargets`) */
  exchangeTargets: ExchangeTargets;
  /** Sentences the start prints about the exchange configuration (an older variable read a new way) */
  exchangeNotices: string[];
};

/** Reads configuration from the environment; every key has an embedded default */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = ConfigSchema.safeParse({
    host: env.KESTREL_HOST || undefined,
    port: env.KESTREL_PORT || env.PORT || undefined,
    corsOrigins: env.KESTREL_CORS_ORIGINS || undefined,
    logLevel: env.KESTREL_LOG_LEVEL || undefined,
    dataDir: env.KESTREL_DATA_DIR || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    keysDir: env.KESTREL_KEYS_DIR || defaultKeysDir(env),
    masterKey: env.KESTREL_MASTER_KEY || undefined,
    tokenKey: env.KESTREL_TOKEN_KEY || undefined,
    liveSymbols: env.KESTREL_LIVE_SYMBOLS || undefined,
    backtestConcurrency: env.KESTREL_BACKTEST_CONCURRENCY || undefined,
    accountRecorder: env.KESTREL_ACCOUNT_RECORDER || undefined,
    headersTimeoutMs: env.KESTREL_HEADERS_TIMEOUT_MS || undefined,
    requestTimeoutMs: env.KESTREL_REQUEST_TIMEOUT_MS || undefined,
    trustProxy: env.KESTREL_TRUST_PROXY || undefined,
    signupsPerIpHour: env.KESTREL_SIGNUPS_PER_IP_HOUR || undefined,
    idleTimeoutMs: env.KESTREL_IDLE_TIMEOUT_MS || undefined,
    maxConnectionsPerIp: env.KESTREL_MAX_CONNECTIONS_PER_IP || undefined,
    exchangeUserShare: env.KESTREL_EXCHANGE_USER_SHARE || undefined,
    webhooksAllowPrivate: env.KESTREL_WEBHOOKS_ALLOW_PRIVATE || undefined,
    webhooksAllowHosts: env.KESTREL_WEBHOOKS_ALLOW_HOSTS || undefined,
    llmAllowPrivate: env.KESTREL_LLM_ALLOW_PRIVATE || undefined,
    keyRecheckMs: env.KESTREL_KEY_RECHECK_MS || undefined,
    maxSocketsPerUser: env.KESTREL_MAX_SOCKETS_PER_USER || undefined,
    jobsPerHour: env.KESTREL_JOBS_PER_HOUR || undefined,
    jobsQueued: env.KESTREL_JOBS_QUEUED || undefined,
    exchangeBreakerFailures: env.KESTREL_EXCHANGE_BREAKER_FAILURES || undefined,
    exchangeBreakerCoolDownMs: env.KESTREL_EXCHANGE_BREAKER_COOLDOWN_MS || undefined,
    telegramBotToken: env.KESTREL_TELEGRAM_BOT_TOKEN || undefined,
    telegramApiUrl: env.KESTREL_TELEGRAM_API_URL || undefined,
  });
  if (!parsed.success) {
    // Never echo the received values: DATABASE_URL and the keys are secrets
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid server configuration: ${issues}`);
  }
  const config = parsed.data;
  let resolved: ReturnType<typeof resolveExchangeTargets>;
  try {
    resolved = resolveExchangeTargets(env);
  } catch (err) {
    const message =
      err instanceof z.ZodError ? err.issues.map((i) => i.message).join('; ') : (err as Error).message;
    throw new Error(`Invalid server configuration: ${message}`);
  }
  const testnet = resolved.targets.testnet;
  if (!testnet.configured)
    throw new Error('Invalid server configuration: the testnet environment has no exchange');
  return {
    ...config,
    exchange: testnet.endpoints,
    exchangeTargets: resolved.targets,
    exchangeNotices: resolved.notices,
    dataDir: isAbsolute(config.dataDir) ? config.dataDir : resolve(config.dataDir),
    keysDir: isAbsolute(config.keysDir) ? config.keysDir : resolve(config.keysDir),
  };
}

/** The user's configuration folder (XDG), as other tools keep their keys: `~/.config/kestrel/keys` */
function defaultKeysDir(env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(configHome, 'kestrel', 'keys');
}
