import { z } from 'zod';
import { BTCUSDT_BRACKETS, type LeverageBracket } from '../futures/brackets';
import { DEFAULT_FUNDING_INTERVAL_HOURS } from '../futures/funding';

/**
 * Costs and account settings of a simulated futures account. Defaults are Binance's regular tier for BTCUSDT:
 * maker 0.02 %, taker 0.05 %, liquidation clearance fee 1.25 %, funding 0.01 % per 8 h.
 */
export const BrokerSettingsSchema = z.object({
  initialBalance: z.number().positive().default(10_000),
  leverage: z.number().int().min(1).max(125).default(10),
  marginMode: z.enum(['isolated', 'cross']).default('cross'),
  makerFee: z.number().min(-0.001).max(0.01).default(0.0002),
  takerFee: z.number().min(0).max(0.01).default(0.0005),
  /** Adverse slippage on market, stop and trailing fills, in basis points of the fill price */
  slippageBps: z.number().min(0).max(1_000).default(1),
  /**
   * Market impact on top: the fill moves by this fraction of the price for an order as large as the bar's whole
   * volume (linear in order size / bar volume; 0 = off). Big orders in thin bars pay more.
   */
  slippageImpact: z.number().min(0).max(1).default(0),
  liquidationFeeRate: z.number().min(0).max(0.1).default(0.0125),
  /** Constant funding rate per interval; overridden by `fundingRates` where given */
  fundingRate: z.number().min(-0.03).max(0.03).default(0.0001),
  fundingIntervalHours: z
    .union([z.literal(1), z.literal(2), z.literal(4), z.literal(8)])
    .default(DEFAULT_FUNDING_INTERVAL_HOURS),
  tickSize: z.number().positive().default(0.1),
  stepSize: z.number().positive().default(0.001),
  minNotional: z.number().min(0).default(100),
});

export type BrokerSettingsInput = z.input<typeof BrokerSettingsSchema>;

/** Historical funding rates: the rate in force at each funding time is the last one at or before it */
export interface FundingRates {
  time: Float64Array | readonly number[];
  rate: Float64Array | readonly number[];
}

export type BrokerConfig = z.output<typeof BrokerSettingsSchema> & {
  brackets: readonly LeverageBracket[];
  fundingRates?: FundingRates;
};

/** Validates settings (clear error naming the field) and fills defaults */
export function brokerConfig(
  settings: BrokerSettingsInput = {},
  extra: { brackets?: readonly LeverageBracket[]; fundingRates?: FundingRates } = {},
): BrokerConfig {
  const parsed = BrokerSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RangeError(`broker settings: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return { ...parsed.data, brackets: extra.brackets ?? BTCUSDT_BRACKETS, fundingRates: extra.fundingRates };
}
