import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { ExchangeIdSchema } from '../exchange/connection-test';

/** The spec's two trading environments; testnet is the default */
export const TRADING_ENVIRONMENTS = ['testnet', 'mainnet'] as const;
export const TradingEnvironmentSchema = z.enum(TRADING_ENVIRONMENTS, {
  error: 'environment must be "testnet" or "mainnet"',
});
export type TradingEnvironment = z.infer<typeof TradingEnvironmentSchema>;
export const DEFAULT_TRADING_ENVIRONMENT: TradingEnvironment = 'testnet';
/** Switches kept per user (spec: last 10 entries) */
export const ENVIRONMENT_HISTORY_KEPT = 10;

/**
 * What the server reaches for an environment: `simulator` (the embedded demo exchange, demo funds),
 * `binance-testnet` (Binance's futures testnet, fake funds) or `binance-mainnet` (real money)
 */
export const ExchangeTargetKindSchema = z.enum(['simulator', 'binance-testnet', 'binance-mainnet']);
export type ExchangeTargetKind = z.infer<typeof ExchangeTargetKindSchema>;

/** One environment as this server can (or cannot) reach it */
export const EnvironmentTargetSchema = z.object({
  environment: TradingEnvironmentSchema,
  configured: z.boolean(),
  /** Null when not configured */
  kind: ExchangeTargetKindSchema.nullable(),
  /** What the top bar shows: "Simulator", "Testnet" or "LIVE mainnet" */
  label: z.string(),
  /** Real money is at stake (mainnet) */
  realMoney: z.boolean(),
  /** Why it cannot be chosen, in words an operator can act on (null when configured) */
  reason: z.string().nullable(),
});
export type EnvironmentTarget = z.infer<typeof EnvironmentTargetSchema>;

export const EnvironmentHistoryEntrySchema = z.object({
  environment: TradingEnvironmentSchema,
  /** ms since the epoch */
  timestamp: z.number().int(),
  exchangeId: ExchangeIdSchema.nullable(),
});
export type EnvironmentHistoryEntry = z.infer<typeof EnvironmentHistoryEntrySchema>;

/** GET /api/v1/environment and the answer of a switch: the user's environment state (spec) and the targets */
export const EnvironmentStateSchema = z.object({
  currentEnvironment: TradingEnvironmentSchema,
  isTestnetMode: z.boolean(),
  /** Oldest first, at most the last 10 switches */
  environmentHistory: z.array(EnvironmentHistoryEntrySchema),
  /** The current environment's target (what the badge shows) */
  current: EnvironmentTargetSchema,
  targets: z.array(EnvironmentTargetSchema),
});
export type EnvironmentStateResponse = z.infer<typeof EnvironmentStateSchema>;
export const EnvironmentResponseSchema = okResponse(EnvironmentStateSchema);

/** PUT /api/v1/environment: switch (switching to mainnet needs the password within the last 5 minutes) */
export const SwitchEnvironmentSchema = z.strictObject({
  environment: TradingEnvironmentSchema,
  exchangeId: ExchangeIdSchema.nullable().optional(),
});
export type SwitchEnvironment = z.infer<typeof SwitchEnvironmentSchema>;

/** Optional `?environment=` of the credentials calls: which environment's key (default: the current one) */
export const EnvironmentQuerySchema = z.strictObject({
  environment: TradingEnvironmentSchema.optional(),
});
export type EnvironmentQuery = z.infer<typeof EnvironmentQuerySchema>;

export const ENVIRONMENT_NOT_CONFIGURED = 'ENVIRONMENT_NOT_CONFIGURED';
