import { z } from 'zod';

/**
 * The parameters of a strategy that enters one position at a time sized from its equity, with an optional
 * stop-loss and take-profit placed at the entry fill (`placePositionExits`)
 */
export const entryParams = {
  /** Margin committed per entry as a fraction of equity */
  positionFraction: z
    .number()
    .min(0.01)
    .max(1)
    .default(0.5)
    .describe('Share of equity used as margin per entry')
    .meta({ unit: 'fraction' }),
  leverage: z.number().int().min(1).max(125).default(3),
  stopLossPct: z
    .number()
    .min(0)
    .max(0.5)
    .default(0)
    .describe('Stop-loss distance from entry (0 = none)')
    .meta({ unit: 'fraction' }),
  takeProfitPct: z
    .number()
    .min(0)
    .max(5)
    .default(0)
    .describe('Take-profit distance from entry (0 = none)')
    .meta({ unit: 'fraction' }),
};
