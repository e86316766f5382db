import { z } from 'zod';
import { EngineInputError } from '../errors';
import type { AgentConfig } from './types';

/**
 * The agent's settings as a bot's params: every field defaulted and bounded, so `{}` is a working agent and no
 * value can make training or a decision degenerate (a zero-width dead zone is allowed, a negative one is not).
 */
export const AgentConfigSchema = z
  .object({
    horizonBars: z.number().int().min(1).max(500).default(12).describe('Bars ahead the label looks'),
    deadZone: z
      .number()
      .min(0)
      .max(0.2)
      .default(0.001)
      .describe('Forward returns within this fraction (after costs) are labelled flat'),
    trainBars: z.number().int().min(200).max(1_000_000).default(5_000).describe('Training window, bars'),
    retrainHours: z
      .number()
      .min(1)
      .max(24 * 90)
      .default(24)
      .describe('Retrain cadence, hours of market time'),
    expiryHours: z
      .number()
      .min(1)
      .max(24 * 365)
      .default(72)
      .describe('Model age past which no new entries are allowed'),
    l2: z.number().min(1e-6).max(100).default(0.01).describe('L2 penalty of the logistic regression'),
    entryThreshold: z
      .number()
      .min(0.34)
      .max(0.99)
      .default(0.55)
      .describe('Probability of the side an entry needs'),
    maxDissimilarity: z
      .number()
      .min(0.01)
      .max(100)
      .default(1.5)
      .describe(
        'Largest dissimilarity index (distance to the nearest training row / mean pairwise distance)',
      ),
    minPredictionZ: z
      .number()
      .min(0)
      .max(10)
      .default(1.25)
      .describe('Smallest prediction z-score against the training distribution'),
    feeRate: z.number().min(0).max(0.01).default(0.0004).describe('Taker fee per side, fraction of notional'),
    slippage: z.number().min(0).max(0.05).default(0.0002).describe('Slippage per side, fraction of notional'),
    sizeFraction: z.number().min(0.01).max(1).default(0.25).describe('Share of the budget one entry commits'),
    stopAtr: z.number().min(0).max(50).default(3).describe('Stop distance in ATRs (0 = no stop)'),
    seed: z.number().int().min(0).max(2_147_483_647).default(1).describe('Seed of every random choice'),
  })
  .refine((c) => c.trainBars > c.horizonBars * 4, {
    message: 'trainBars must be more than four horizons',
    path: ['trainBars'],
  });

/** Validated config with defaults filled; throws EngineInputError naming the bad field */
export function parseAgentConfig(input: unknown): AgentConfig {
  const result = AgentConfigSchema.safeParse(input ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new EngineInputError(`agent config: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return result.data;
}

/** Round-trip cost of one trade as a fraction of notional: fee and slippage on entry and on exit */
export function roundTripCost(config: AgentConfig): number {
  return 2 * (config.feeRate + config.slippage);
}

/** Retrain cadence in bars of this interval (at least one) */
export function retrainBars(config: AgentConfig, intervalMs: number): number {
  return Math.max(1, Math.round((config.retrainHours * 3_600_000) / intervalMs));
}
