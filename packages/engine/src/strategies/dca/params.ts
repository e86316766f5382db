import { z } from 'zod';

/** DCA with safety orders (the 3Commas-style bot): sizes are in the quote asset (USDT) */
export const DcaParamsSchema = z.object({
  side: z.enum(['long', 'short']).default('long'),
  baseOrderSize: z.number().positive().default(200).describe('Quote value of the first order'),
  safetyOrderSize: z.number().positive().default(200).describe('Quote value of the first safety order'),
  safetyOrderCount: z.number().int().min(0).max(50).default(5),
  /** Price move against the position before the first safety order, as a fraction */
  priceDeviation: z.number().min(0.001).max(0.5).default(0.01).meta({ unit: 'fraction' }),
  /** Each further step is this many times the previous one */
  stepScale: z.number().min(0.5).max(5).default(1.5),
  /** Each further safety order is this many times bigger */
  volumeScale: z.number().min(0.5).max(5).default(1.5),
  takeProfit: z
    .number()
    .min(0.001)
    .max(1)
    .default(0.01)
    .describe('Take profit from the average entry')
    .meta({ unit: 'fraction' }),
  stopLoss: z
    .number()
    .min(0)
    .max(0.99)
    .default(0)
    .describe('Stop loss from the average entry (0 = none)')
    .meta({ unit: 'fraction' }),
  /**
   * Trailing take-profit: once the take-profit price is reached the exit follows the price up (down for shorts)
   * and closes when it comes back this fraction; 0 = a fixed take-profit. Binance's trailing stop, so it holds on
   * the exchange: 0.001 to 0.1 in steps of 0.001
   */
  trailingDeviation: z
    .number()
    .min(0)
    .max(0.1)
    .default(0)
    .refine((v) => v === 0 || (v >= 0.001 && Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-9), {
      message: 'trailing deviation must be 0 or from 0.001 to 0.1 in steps of 0.001',
    })
    .describe('Trailing take-profit deviation (0 = fixed take-profit)')
    .meta({ unit: 'fraction' }),
  leverage: z.number().int().min(1).max(125).default(3),
});

export type DcaParams = z.output<typeof DcaParamsSchema>;

/** Safety order k (0-based): distance from the base price and quote size */
export function safetyOrderPlan(p: DcaParams): { deviation: number; size: number }[] {
  const plan: { deviation: number; size: number }[] = [];
  let deviation = 0;
  let step = p.priceDeviation;
  let size = p.safetyOrderSize;
  for (let k = 0; k < p.safetyOrderCount; k++) {
    deviation += step;
    plan.push({ deviation, size });
    step *= p.stepScale;
    size *= p.volumeScale;
  }
  return plan;
}

/** Where a safety order `deviation` away from the base price rests: below it for a long, above for a short */
export const safetyOrderPrice = (base: number, deviation: number, long: boolean) =>
  base * (long ? 1 - deviation : 1 + deviation);
