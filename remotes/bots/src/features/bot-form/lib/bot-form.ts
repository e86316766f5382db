import { KlineIntervalSchema } from '@kestrel/contracts';
import {
  BOT_NAME_MAX_LENGTH,
  type Bot,
  BotRiskLimitsSchema,
  type CreateBotRequestInput,
  CreateBotRequestSchema,
  type UpdateBotRequest,
} from '@kestrel/contracts/bots';
import { z } from 'zod';
import { addParamsIssues, type ParamsValidator } from '../../../lib/params-validator';
import { AGENT_STRATEGY } from '../../bot-hub/lib/templates';

/**
 * Parameters the bot sets itself rather than the strategy's form: a strategy's own `leverage` parameter (grid, DCA)
 * takes the bot's leverage, so the user chooses it once, in the market step
 */
export const BOT_OWNED_PARAMS = ['leverage'] as const;

export const MODE_CONFIRM_MESSAGE = 'Confirm that this bot places real orders with your Binance account';

/** Why a strategy that trades on outside signals has no paper mode (the server's refusal says the same) */
export const SIGNALS_LIVE_ONLY =
  'Webhook signals trade live only: on the simulator or testnet, a live bot is the rehearsal with no money at stake';

const fields = CreateBotRequestSchema.shape;

/** An empty number input (NaN with `valueAsNumber`) is "no limit" */
const optionalLimit = (schema: (typeof BotRiskLimitsSchema.shape)['maxNotional']) =>
  z.preprocess(
    (v) => (v === '' || v === undefined || (typeof v === 'number' && Number.isNaN(v)) ? null : v),
    schema.removeDefault(),
  );

/** The form's fields: the contract's own rules (so the browser says what the server would), empty limits as null */
const FormShape = z.object({
  name: fields.name,
  strategy: z.string({ error: 'Choose a strategy' }).min(1, 'Choose a strategy'),
  params: z.record(z.string(), z.unknown()),
  symbol: fields.symbol,
  interval: fields.interval,
  leverage: fields.leverage,
  budget: fields.budget,
  mode: fields.mode,
  riskLimits: z.object({
    maxNotional: optionalLimit(BotRiskLimitsSchema.shape.maxNotional),
    dailyLossLimit: optionalLimit(BotRiskLimitsSchema.shape.dailyLossLimit),
    maxDrawdownPercent: optionalLimit(BotRiskLimitsSchema.shape.maxDrawdownPercent),
  }),
  confirmLive: z.boolean(),
});

export type BotFormValues = z.input<typeof FormShape>;
export type BotFormOutput = z.output<typeof FormShape>;

/**
 * The form's schema: field rules, the live-mode confirmation, live mode for a strategy that trades on signals
 * (`takesSignals` says which), then the strategy's parameters under their fields
 */
export function botFormSchema(
  validateParams: ParamsValidator,
  takesSignals: (strategy: string) => boolean = () => false,
) {
  return FormShape.superRefine((values, ctx) => {
    if (values.mode === 'paper' && takesSignals(values.strategy)) {
      ctx.addIssue({ code: 'custom', path: ['mode'], message: SIGNALS_LIVE_ONLY });
    }
    if (values.mode === 'live' && !values.confirmLive) {
      ctx.addIssue({ code: 'custom', path: ['confirmLive'], message: MODE_CONFIRM_MESSAGE });
    }
    addParamsIssues(ctx, validateParams, values);
  });
}

export type StepId = 'strategy' | 'market' | 'params' | 'budget' | 'mode' | 'review';

/** The form's steps in order, each with the fields it checks before the next one opens */
export const STEPS: readonly { id: StepId; title: string; fields: readonly string[] }[] = [
  { id: 'strategy', title: 'Strategy', fields: ['strategy', 'name'] },
  { id: 'market', title: 'Market', fields: ['symbol', 'interval', 'leverage'] },
  { id: 'params', title: 'Parameters', fields: ['params'] },
  { id: 'budget', title: 'Budget and risk', fields: ['budget', 'riskLimits'] },
  { id: 'mode', title: 'Mode', fields: ['mode', 'confirmLive'] },
  { id: 'review', title: 'Review', fields: [] },
];

/** The step holding a field (`params.gridCount` → parameters); the review step when none does */
export function stepOfField(path: string): StepId {
  const head = path.split('.')[0] ?? '';
  return STEPS.find((s) => s.fields.includes(head))?.id ?? 'review';
}

/** The strategy's parameters with the ones the bot owns set from the bot's own fields */
export function botParams(
  params: Record<string, unknown>,
  defaults: Record<string, unknown>,
  leverage: number,
): Record<string, unknown> {
  return 'leverage' in defaults ? { ...params, leverage } : params;
}

/** Every field of the bot as the form holds it: a create sends them all, and so does an edit */
function requestFields(values: BotFormOutput, params: Record<string, unknown>) {
  return {
    name: values.name,
    strategy: values.strategy,
    params,
    symbol: values.symbol,
    interval: values.interval,
    leverage: values.leverage,
    budget: values.budget,
    mode: values.mode,
    riskLimits: values.riskLimits,
    ...(values.mode === 'live' ? { confirmLive: values.confirmLive } : {}),
  };
}

/** The create request for valid form values (params already checked and decoded by the validator) */
export function toCreateRequest(
  values: BotFormOutput,
  params: Record<string, unknown>,
): CreateBotRequestInput {
  return requestFields(values, params);
}

/** An edit sends every field: what the user saw on the review step is what the bot becomes */
export function toUpdateRequest(values: BotFormOutput, params: Record<string, unknown>): UpdateBotRequest {
  return requestFields(values, params);
}

/**
 * An AI agent starts with a drawdown limit of its own: a breach latches it (a hard kill until a person resets it),
 * the guard-rail a model that can be confidently wrong needs from its first run. Budget-relative, so it holds
 * whatever budget is chosen; the trader may change or clear it
 */
export const AGENT_DEFAULT_MAX_DRAWDOWN_PERCENT = 20;

/**
 * Starting values of a new bot: the strategy's defaults, BTCUSDT 1h, 3×, 100 USDT, paper (live for one that trades
 * on signals, its only mode), no limits of its own (an AI agent: a drawdown limit)
 */
export function defaultBotValues(
  strategy:
    | { id: string; name: string; defaults: Record<string, unknown>; takesSignals?: boolean }
    | undefined,
  paramsToForm: (strategyId: string) => Record<string, unknown>,
): BotFormValues {
  const leverage =
    strategy && typeof strategy.defaults.leverage === 'number' ? strategy.defaults.leverage : 3;
  return {
    name: strategy ? `${strategy.name} BTCUSDT` : '',
    strategy: strategy?.id ?? '',
    params: strategy ? paramsToForm(strategy.id) : {},
    symbol: 'BTCUSDT',
    interval: '1h',
    leverage,
    budget: 100,
    mode: strategy?.takesSignals ? 'live' : 'paper',
    riskLimits: {
      maxNotional: null,
      dailyLossLimit: null,
      maxDrawdownPercent: strategy?.id === AGENT_STRATEGY ? AGENT_DEFAULT_MAX_DRAWDOWN_PERCENT : null,
    },
    confirmLive: false,
  };
}

/** What a link may prefill on a new bot (`/create-bot?strategy&symbol&interval&params`) */
export interface BotPrefill {
  symbol?: string;
  interval?: BotFormValues['interval'];
  params?: Record<string, unknown>;
}

/**
 * The prefill in a create-bot address, each part only when it reads right (a symbol of capitals and digits, a known
 * interval, params as a JSON object); anything else is left to the defaults, and the form checks the rest
 */
export function prefillOf(search: URLSearchParams): BotPrefill {
  const out: BotPrefill = {};
  const symbol = search.get('symbol')?.trim().toUpperCase();
  if (symbol && /^[A-Z0-9]{2,30}$/.test(symbol)) out.symbol = symbol;
  const interval = KlineIntervalSchema.safeParse(search.get('interval'));
  if (interval.success) out.interval = interval.data;
  const raw = search.get('params');
  if (raw) {
    try {
      const params: unknown = JSON.parse(raw);
      if (params !== null && typeof params === 'object' && !Array.isArray(params)) {
        out.params = params as Record<string, unknown>;
      }
    } catch {
      // A mangled address: the strategy's defaults stand
    }
  }
  return out;
}

/**
 * A new bot's values with a prefill over the defaults: the strategy's parameters from the prefill (the bot's
 * leverage from its `leverage` parameter, which the bot owns), the symbol and interval, a name that says which
 */
export function prefilledBotValues(
  base: BotFormValues,
  prefill: BotPrefill,
  paramsToForm: (params: Record<string, unknown>) => Record<string, unknown>,
  strategyName: string | undefined,
): BotFormValues {
  if (!prefill.symbol && !prefill.interval && !prefill.params) return base;
  const symbol = prefill.symbol ?? base.symbol;
  const leverage = prefill.params?.leverage;
  return {
    ...base,
    name: strategyName ? `${strategyName} ${symbol}`.slice(0, BOT_NAME_MAX_LENGTH) : base.name,
    symbol,
    interval: prefill.interval ?? base.interval,
    params: prefill.params ? paramsToForm(prefill.params) : base.params,
    leverage:
      typeof leverage === 'number' && Number.isInteger(leverage) && leverage >= 1 ? leverage : base.leverage,
  };
}

/** An existing bot as form values: for editing it, or (renamed, unconfirmed) as the start of a copy */
export function botToFormValues(
  bot: Bot,
  paramsToForm: (strategyId: string, params: Record<string, unknown>) => Record<string, unknown>,
  { clone = false } = {},
): BotFormValues {
  return {
    name: clone ? `${bot.name} (copy)`.slice(0, BOT_NAME_MAX_LENGTH) : bot.name,
    strategy: bot.strategy,
    params: paramsToForm(bot.strategy, bot.params),
    symbol: bot.symbol,
    interval: bot.interval,
    leverage: bot.leverage,
    budget: bot.budget,
    mode: bot.mode,
    riskLimits: { ...bot.riskLimits },
    // A live bot's confirmation is asked again on every save: it is about this change, not the last one
    confirmLive: false,
  };
}

const FIELD_NAMES = /^(name|strategy|symbol|interval|leverage|budget|mode|confirmLive)\b/;
const LIMIT_NAMES = /^riskLimits\.(maxNotional|dailyLossLimit|maxDrawdownPercent)\b/;
const LIMIT_LABELS: readonly [RegExp, string][] = [
  [/^Max notional\b/, 'riskLimits.maxNotional'],
  [/^Daily loss limit\b/, 'riskLimits.dailyLossLimit'],
  [/^Max drawdown\b/, 'riskLimits.maxDrawdownPercent'],
];

export interface ServerRefusal {
  /** The form field it is about ("budget", "params.gridCount"), or null when it names none the form shows */
  field: string | null;
  /** The refusal without the envelope's prefix: "symbol: ZZZUSDT is not listed on the exchange" */
  text: string;
  /** The step to go back to */
  step: StepId;
}

/**
 * Where a server refusal belongs, from its sentence: "Invalid request: body.budget: budget must be at least 10
 * USDT", "Invalid bot: symbol: ZZZUSDT is not listed on the exchange", "Invalid bot: params: gridCount …". A
 * parameter counts only if the strategy has it (`paramKeys`); otherwise the parameters step shows the sentence
 */
export function serverRefusal(message: string, paramKeys: readonly string[]): ServerRefusal {
  const text = message.replace(/^Invalid (bot|request):\s*/, '').split('; ')[0] ?? message;
  const path = text.replace(/^body\./, '');
  const param = /^params[.:]\s*(\w+)/.exec(path)?.[1];
  if (param !== undefined && paramKeys.includes(param)) {
    return { field: `params.${param}`, text, step: 'params' };
  }
  if (/^params\b/.test(path)) return { field: null, text, step: 'params' };
  const limit = LIMIT_NAMES.exec(path)?.[1] ?? null;
  if (limit) return { field: `riskLimits.${limit}`, text, step: 'budget' };
  for (const [pattern, field] of LIMIT_LABELS) {
    if (pattern.test(path)) return { field, text, step: 'budget' };
  }
  const name = FIELD_NAMES.exec(path)?.[1];
  if (name) return { field: name, text, step: stepOfField(name) };
  return { field: null, text: message, step: 'review' };
}
