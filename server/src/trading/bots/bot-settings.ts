import { builtInStrategies, EngineInputError, resolveBrokerConfig } from '@kestrel/engine';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import { exchangeHttpError } from '../../core/exchange/exchange-http-error';
import { HttpError } from '../../lib/http-error';
import type { BotRow, BotSettings } from './bot-repository';
import { type PlanReads, planProblems } from './order-plan-check';

/*
 * What a bot's settings may be (checked like a backtest's, and against the exchange's symbol rules), which of them
 * a running bot may change, and the words its log and answers use for them
 */

/** What a running bot's settings change with: its name at once, these by a restart */
export const RESTARTS_WITH: ReadonlyArray<keyof BotSettings> = [
  'params',
  'leverage',
  'budget',
  'risk_limits',
];
/** …and these only once it is stopped or paused: another market or strategy is another bot's session */
export const LOCKED_WHILE_RUNNING = ['strategy', 'symbol', 'interval', 'mode'] as const;
const FIELD_WORDS: Record<keyof BotSettings, string> = {
  name: 'name',
  strategy: 'strategy',
  params: 'parameters',
  symbol: 'symbol',
  interval: 'interval',
  leverage: 'leverage',
  budget: 'budget',
  mode: 'mode',
  risk_limits: 'risk limits',
};

/**
 * The settings as they will be stored, or a 400 naming the field and the rule: the strategy's own parameter
 * schema (the bot's leverage replaces the strategy's leverage parameter), the symbol on the exchange, the
 * engine's account rules with the symbol's filters, and the confirmation of a live bot on mainnet
 */
export async function validateBotSettings(
  market: PlanReads,
  input: BotSettings & { confirmLive: boolean | undefined; account: TradingAccount },
): Promise<BotSettings> {
  const environment = input.account.environment;
  const type = builtInStrategies.get(input.strategy);
  if (!type) {
    throw invalid(
      `strategy: unknown strategy "${input.strategy}"; known: ${[...builtInStrategies.keys()].join(', ')}`,
    );
  }
  // A paper bot's account is replayed from its bars alone; an outside signal is not among them
  if (type.takesSignals && input.mode !== 'live')
    throw invalid(
      `mode: ${type.name} trade live only: on the simulator or testnet, a live bot is the rehearsal with no money at stake`,
    );
  const raw =
    'leverage' in type.paramsSchema.shape ? { ...input.params, leverage: input.leverage } : input.params;
  let params: Record<string, unknown>;
  try {
    params = type.parseParams(raw);
  } catch (err) {
    if (err instanceof EngineInputError) throw invalid(`params: ${err.message}`);
    throw err;
  }
  let info: Awaited<ReturnType<ExchangeAdapter['symbolInfo']>>;
  try {
    info = await market.symbolInfo(input.symbol);
  } catch (err) {
    throw exchangeHttpError(err);
  }
  if (!info) throw invalid(`symbol: ${input.symbol} is not listed on the exchange`);
  try {
    resolveBrokerConfig({
      broker: {
        initialBalance: input.budget,
        leverage: input.leverage,
        tickSize: Number(info.tickSize),
        stepSize: Number(info.stepSize),
        minNotional: Number(info.minNotional),
      },
    });
  } catch (err) {
    throw invalid((err as Error).message);
  }
  const problems = await planProblems(market, type, params, {
    ...input,
    info,
  });
  if (problems.length > 0) throw invalid(problems.map((p) => p.message).join('; '));
  if (input.mode === 'live' && environment === 'mainnet' && input.confirmLive !== true) {
    throw invalid(
      'confirmLive: a live bot on mainnet trades real money; confirm it (confirmLive: true) to save it',
    );
  }
  return {
    name: input.name,
    strategy: type.id,
    params,
    symbol: input.symbol,
    interval: input.interval,
    leverage: input.leverage,
    budget: input.budget,
    mode: input.mode,
    risk_limits: input.risk_limits,
  };
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'INVALID_BOT', `Invalid bot: ${message}`);
}

/** The settings that differ from the row's (a running bot's change: its name at once, the rest by a restart) */
export function changedSettings(row: BotRow, settings: BotSettings): Array<keyof BotSettings> {
  return (Object.keys(FIELD_WORDS) as Array<keyof BotSettings>).filter(
    (k) => !sameSetting(settings[k], row[k]),
  );
}

/**
 * Whether a setting is unchanged: stored as jsonb, params and limits come back with their keys in another order,
 * and a form's percent field turns 0.07 into 0.07000000000000001, which is no change a restart should follow
 */
function sameSetting(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => sameSetting((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

/** "parameters and budget" */
export function settingWords(fields: ReadonlyArray<keyof BotSettings>): string {
  const names = fields.map((k) => FIELD_WORDS[k]);
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** "grid on BTCUSDT 1h, 3×, budget 1000 USDT, paper": a log line's words for the settings */
export function describeBot(row: BotRow): string {
  return `${row.strategy} on ${row.symbol} ${row.interval}, ${row.leverage}×, budget ${row.budget} USDT, ${row.mode}`;
}
