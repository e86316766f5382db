import type { BacktestStrategyInfo } from '@kestrel/contracts/backtest';
import { mlAgentStrategy } from '../agent/strategy';
import { EngineInputError } from '../errors';
import type { StrategyType } from '../strategy/registry';
import { dcaStrategy } from './dca/strategy';
import { emaCrossStrategy } from './ema-cross/strategy';
import { gridStrategy } from './grid/strategy';
import { signalRulesStrategy } from './signal-rules/strategy';
import { webhookSignalStrategy } from './webhook-signal/strategy';

/** The strategies that ship with the engine, by id (worker threads look them up by id) */
export const builtInStrategies: ReadonlyMap<string, StrategyType> = new Map(
  [
    emaCrossStrategy,
    gridStrategy,
    dcaStrategy,
    signalRulesStrategy,
    mlAgentStrategy,
    webhookSignalStrategy,
  ].map((s) => [s.id, s]),
);

export function getBuiltInStrategy(id: string): StrategyType {
  const type = builtInStrategies.get(id);
  if (!type)
    throw new EngineInputError(
      `unknown strategy "${id}"; known: ${[...builtInStrategies.keys()].join(', ')}`,
    );
  return type;
}

/**
 * The built-in strategies as the API lists them (`GET /api/v1/backtests/strategies`): id, name, description, the
 * JSON schema a form renders and the parameters with every default filled. The one mapping from the registry to the
 * catalogue: the server answers with it, the bots remote reads the server's answer.
 */
export function strategyCatalogue(): BacktestStrategyInfo[] {
  return [...builtInStrategies.values()].map((type) => ({
    id: type.id,
    name: type.name,
    description: type.description,
    paramsJsonSchema: type.paramsJsonSchema() as Record<string, unknown>,
    defaults: type.parseParams({}),
    takesSignals: type.takesSignals,
  }));
}
