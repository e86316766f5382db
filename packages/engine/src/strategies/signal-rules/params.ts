import { z } from 'zod';
import { entryParams } from '../shared/entry-params';

/** Indicators a rule can read; MACD uses 12/26/9, Bollinger k = 2, `period` applies to the others */
export const RULE_INDICATORS = [
  'sma',
  'ema',
  'rsi',
  'atr',
  'vwap',
  'macd',
  'macdSignal',
  'macdHistogram',
  'bbUpper',
  'bbMiddle',
  'bbLower',
] as const;

export const OperandSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('price'), field: z.enum(['open', 'high', 'low', 'close']).default('close') }),
  z.object({ kind: z.literal('value'), value: z.number() }),
  z.object({
    kind: z.literal('indicator'),
    name: z.enum(RULE_INDICATORS),
    period: z.number().int().min(1).max(1_000).default(14),
  }),
]);

export const ConditionSchema = z.object({
  left: OperandSchema,
  op: z.enum(['above', 'below', 'crossesAbove', 'crossesBelow']),
  right: OperandSchema,
});

export type Operand = z.output<typeof OperandSchema>;
export type Condition = z.output<typeof ConditionSchema>;

const rsi14 = { kind: 'indicator', name: 'rsi', period: 14 } as const;

/** Entry when all entry conditions hold on a closed bar while flat; exit when all exit conditions hold */
export const SignalRulesParamsSchema = z.object({
  side: z.enum(['long', 'short']).default('long'),
  entry: z
    .array(ConditionSchema)
    .min(1)
    .max(8)
    .default([{ left: rsi14, op: 'crossesAbove', right: { kind: 'value', value: 30 } }]),
  exit: z
    .array(ConditionSchema)
    .min(1)
    .max(8)
    .default([{ left: rsi14, op: 'crossesAbove', right: { kind: 'value', value: 70 } }]),
  ...entryParams,
});

export type SignalRulesParams = z.output<typeof SignalRulesParamsSchema>;
