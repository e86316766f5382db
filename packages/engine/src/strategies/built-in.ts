import { EngineInputError } from '../errors';
import type { StrategyType } from '../strategy/registry';
import { dcaStrategy } from './dca/strategy';
import { emaCrossStrategy } from './ema-cross/strategy';
import { gridStrategy } from './grid/strategy';
import { signalRulesStrategy } from './signal-rules/strategy';

/** The strategies that ship with the engine, by id (worker threads look them up by id) */
export const builtInStrategies: ReadonlyMap<string, StrategyType> = new Map(
  [emaCrossStrategy, gridStrategy, dcaStrategy, signalRulesStrategy].map((s) => [s.id, s]),
);

export function getBuiltInStrategy(id: string): StrategyType {
  const type = builtInStrategies.get(id);
  if (!type)
    throw new EngineInputError(
      `unknown strategy "${id}"; known: ${[...builtInStrategies.keys()].join(', ')}`,
    );
  return type;
}
