import { z } from 'zod';
import { EngineInputError } from '../errors';
import type { LevelProfit, PlanMarket, PlannedOrder, RoundTripAt } from './order-plan';
import { INTERFACE_VERSION, type PositionSide, type Strategy, type StrategyDefinition } from './strategy';

/** A strategy type with its parameter types erased: parses unknown input before anything else */
export interface StrategyType {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly interfaceVersion: typeof INTERFACE_VERSION;
  readonly paramsSchema: z.ZodObject;
  /** Validated params with defaults filled; throws EngineInputError naming the bad field */
  parseParams(input: unknown): Record<string, unknown>;
  warmupBars(params: unknown): number;
  /** Which positions it takes with these params (see `StrategyDefinition.positionSide`) */
  positionSide(params: unknown): PositionSide;
  /** The orders its params imply at `market` (see `StrategyDefinition.plannedOrders`; none when it has no plan) */
  plannedOrders(params: unknown, market: PlanMarket): PlannedOrder[];
  /** A round trip between neighbouring levels after fees (see `StrategyDefinition.levelProfit`), or null */
  levelProfit(params: unknown, at: RoundTripAt): LevelProfit | null;
  /** Trades on outside signals only (see `StrategyDefinition.takesSignals`) */
  readonly takesSignals: boolean;
  create(params: unknown): Strategy;
  /** JSON schema of the params (for forms) */
  paramsJsonSchema(): unknown;
}

/** Erases a typed definition into a StrategyType, checking the interface version */
export function strategyType<S extends z.ZodObject>(def: StrategyDefinition<S>): StrategyType {
  if (def.interfaceVersion !== INTERFACE_VERSION) {
    throw new EngineInputError(
      `strategy "${def.id}" implements interface version ${def.interfaceVersion}, the engine runs ${INTERFACE_VERSION}`,
    );
  }
  const parse = (input: unknown): z.output<S> => {
    const result = def.params.safeParse(input ?? {});
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new EngineInputError(`${def.id} params: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
    }
    return result.data;
  };
  return {
    id: def.id,
    name: def.name,
    description: def.description,
    interfaceVersion: def.interfaceVersion,
    paramsSchema: def.params,
    parseParams: (input) => parse(input) as Record<string, unknown>,
    warmupBars: (params) => def.warmupBars(parse(params)),
    positionSide: (params) => def.positionSide?.(parse(params)) ?? 'both',
    plannedOrders: (params, market) => def.plannedOrders?.(parse(params), market) ?? [],
    levelProfit: (params, at) => def.levelProfit?.(parse(params), at) ?? null,
    takesSignals: def.takesSignals === true,
    // A frozen copy: a strategy cannot change the parameters the caller (or the next sweep run) holds
    create: (params) => def.create(deepFreeze(structuredClone(parse(params)))),
    paramsJsonSchema: () => z.toJSONSchema(def.params, { io: 'input' }),
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
