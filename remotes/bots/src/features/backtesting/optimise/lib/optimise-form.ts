import type { KlineInterval } from '@kestrel/contracts';
import {
  countCombinations,
  type OptimisationObjective,
  type OptimisationRequestInput,
  OptimisationRequestSchema,
  type ParamAxis,
} from '@kestrel/contracts/backtest';
import type { ParamField } from '../../../strategy-params/lib/params-schema';
import { dateRange } from '../../lib/backtest-form';

const DAY_MS = 86_400_000;

/** One parameter's row: swept over a range (numbers) or a list (choices, comma separated), or left at its default */
export interface AxisForm {
  sweep: boolean;
  from: string;
  to: string;
  step: string;
  /** Comma-separated values of a choice parameter (side: long, short) */
  values: string;
}

export interface OptimiseFormValues {
  strategy: string;
  symbol: string;
  interval: KlineInterval;
  startDate: string;
  endDate: string;
  objective: OptimisationObjective;
  axes: Record<string, AxisForm>;
  walkForward: { enabled: boolean; trainDays: string; testDays: string; stepDays: string };
}

/** The parameters a sweep can vary: numbers as ranges, choices as lists (booleans and JSON stay fixed) */
export function sweepableFields(fields: readonly ParamField[]): ParamField[] {
  return fields.filter((f) => f.kind === 'integer' || f.kind === 'number' || f.kind === 'enum');
}

/** Rows for a strategy: its first two number parameters swept around their defaults, the rest fixed */
export function defaultAxes(
  fields: readonly ParamField[],
  defaults: Record<string, unknown>,
): Record<string, AxisForm> {
  const axes: Record<string, AxisForm> = {};
  let swept = 0;
  for (const field of sweepableFields(fields)) {
    const value = defaults[field.key];
    if (field.kind === 'enum') {
      axes[field.key] = { sweep: false, from: '', to: '', step: '', values: field.options.join(', ') };
      continue;
    }
    const n = typeof value === 'number' ? value : 0;
    const integer = field.kind === 'integer';
    const step = integer
      ? Math.max(1, Math.round(n / 4))
      : n !== 0
        ? Number((Math.abs(n) / 4).toPrecision(2))
        : 0.1;
    const sweep = swept < 2 && n > 0;
    if (sweep) swept++;
    axes[field.key] = {
      sweep,
      from: String(integer ? Math.max(field.min ?? 1, n - 2 * step) : n),
      to: String(n + 2 * step),
      step: String(step),
      values: '',
    };
  }
  return axes;
}

export function defaultOptimiseValues(
  strategy: string,
  axes: Record<string, AxisForm>,
  now: number,
): OptimiseFormValues {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return {
    strategy,
    symbol: 'BTCUSDT',
    interval: '1h',
    startDate: iso(today - 30 * DAY_MS),
    endDate: iso(today - DAY_MS),
    objective: 'sharpe',
    axes,
    walkForward: { enabled: false, trainDays: '10', testDays: '5', stepDays: '' },
  };
}

const numberOrNaN = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The swept axes as the API takes them (text the user has not finished typing becomes NaN: the schema says so) */
export function formSpace(
  values: OptimiseFormValues,
  fields: readonly ParamField[],
): Record<string, ParamAxis> {
  const space: Record<string, ParamAxis> = {};
  for (const field of sweepableFields(fields)) {
    const axis = values.axes[field.key];
    if (!axis?.sweep) continue;
    if (field.kind === 'enum') {
      space[field.key] = {
        values: axis.values
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      };
    } else {
      space[field.key] = {
        from: numberOrNaN(axis.from),
        to: numberOrNaN(axis.to),
        step: numberOrNaN(axis.step),
      };
    }
  }
  return space;
}

/** Grid size of the form as it stands (0 while an axis is unfinished) */
export function formCombinations(values: OptimiseFormValues, fields: readonly ParamField[]): number {
  const space = formSpace(values, fields);
  const total = countCombinations(space);
  return Number.isFinite(total) ? total : 0;
}

export type OptimiseFormResult =
  | { ok: true; request: OptimisationRequestInput }
  | { ok: false; issues: { path: string; message: string }[] };

/** The request, checked with the API's own schema so the messages and field names are the server's */
export function toOptimisationRequest(
  values: OptimiseFormValues,
  fields: readonly ParamField[],
  defaults: Record<string, unknown>,
  now: number,
): OptimiseFormResult {
  const { startTime, endTime } = dateRange(values.startDate, values.endDate, now);
  const wf = values.walkForward;
  const days = (text: string) => Math.round(numberOrNaN(text) * DAY_MS);
  const request: OptimisationRequestInput = {
    strategy: values.strategy,
    params: defaults,
    symbol: values.symbol,
    interval: values.interval,
    startTime,
    endTime,
    objective: values.objective,
    space: formSpace(values, fields),
    ...(wf.enabled
      ? {
          walkForward: {
            trainMs: days(wf.trainDays),
            testMs: days(wf.testDays),
            ...(wf.stepDays.trim() === '' ? {} : { stepMs: days(wf.stepDays) }),
          },
        }
      : {}),
  };
  const parsed = OptimisationRequestSchema.safeParse(request);
  if (parsed.success) return { ok: true, request };
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  };
}
