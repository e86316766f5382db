import { builtInStrategies, paramLabel } from '@kestrel/engine';
import type { z } from 'zod';

/** How one strategy parameter is edited */
export type ParamField =
  | {
      key: string;
      label: string;
      description?: string;
      kind: 'integer' | 'number';
      min?: number;
      max?: number;
      /**
       * The strategy keeps a fraction (`unit: 'fraction'` in its schema); the form shows and takes percent, and
       * `min` / `max` are in percent too
       */
      percent?: true;
    }
  | { key: string; label: string; description?: string; kind: 'enum'; options: string[] }
  | { key: string; label: string; description?: string; kind: 'boolean' }
  /** Lists and objects (signal rules' conditions) are edited as JSON text */
  | { key: string; label: string; description?: string; kind: 'json' };

type JsonSchemaProperty = {
  type?: string;
  enum?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  unit?: string;
};

/** A fraction as the percent a person reads and types, without binary noise (0.07 → 7, not 7.000000000000001) */
export const toPercent = (fraction: number) => Number((fraction * 100).toPrecision(12));
const fromPercent = (percent: number) => Number((percent / 100).toPrecision(12));

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export { paramLabel };

/** The fields of a strategy's parameter JSON schema (as the engine's `paramsJsonSchema()` and the API give it) */
export function describeParams(jsonSchema: unknown): ParamField[] {
  const properties = isRecord(jsonSchema) && isRecord(jsonSchema.properties) ? jsonSchema.properties : {};
  return Object.entries(properties).map(([key, raw]): ParamField => {
    const prop = (isRecord(raw) ? raw : {}) as JsonSchemaProperty;
    const percent = prop.unit === 'fraction' && prop.type === 'number';
    const base = {
      key,
      label: paramLabel(key, percent),
      ...(prop.description ? { description: prop.description } : {}),
    };
    if (Array.isArray(prop.enum) && prop.enum.every((v) => typeof v === 'string')) {
      return { ...base, kind: 'enum', options: prop.enum as string[] };
    }
    if (prop.type === 'integer' || prop.type === 'number') {
      const min = prop.minimum ?? prop.exclusiveMinimum;
      const max = prop.maximum ?? prop.exclusiveMaximum;
      const shown = (v: number) => (percent ? toPercent(v) : v);
      return {
        ...base,
        kind: prop.type,
        ...(min !== undefined ? { min: shown(min) } : {}),
        ...(max !== undefined ? { max: shown(max) } : {}),
        ...(percent ? { percent: true as const } : {}),
      };
    }
    if (prop.type === 'boolean') return { ...base, kind: 'boolean' };
    return { ...base, kind: 'json' };
  });
}

const isPercent = (field: ParamField) => 'percent' in field && field.percent === true;

/** Form values for a strategy's parameters: JSON fields become indented text, the rest stay as they are */
export function paramsToFormValues(
  params: Record<string, unknown>,
  fields: readonly ParamField[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const value = params[field.key];
    values[field.key] =
      field.kind === 'json'
        ? JSON.stringify(value ?? null, null, 2)
        : isPercent(field) && typeof value === 'number'
          ? toPercent(value)
          : value;
  }
  return values;
}

export interface ParamIssue {
  /** The parameter's key (first path segment) */
  key: string;
  message: string;
}

export type ParsedParams =
  | { success: true; params: Record<string, unknown> }
  | { success: false; issues: ParamIssue[] };

/** Zod's issue, in the words a form shows under the field */
function issueText(issue: z.core.$ZodIssue, percent = false): string {
  const where = issue.path.length > 1 ? `${issue.path.slice(1).join('.')}: ` : '';
  // A percent field's bounds in the percent it shows
  const bound = (v: number | bigint) => (percent ? `${toPercent(Number(v))} %` : String(v));
  switch (issue.code) {
    case 'invalid_type':
      return `${where}${issue.expected === 'number' ? 'Enter a number' : `Expected ${issue.expected}`}`;
    case 'too_small':
      if (issue.origin === 'array') return `${where}Needs at least ${issue.minimum} item(s)`;
      return `${where}Must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${bound(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'array') return `${where}At most ${issue.maximum} item(s)`;
      return `${where}Must be ${issue.inclusive === false ? 'less than' : 'at most'} ${bound(issue.maximum)}`;
    case 'invalid_value':
      return `${where}Must be one of ${issue.values.join(', ')}`;
    default:
      // Whole numbers and the strategies' own rules ("fast must be below slow") say it well already
      return `${where}${issue.message}`;
  }
}

/**
 * Validates form values for a built-in strategy with the engine's own schema (the server runs the same one),
 * after decoding the JSON-text fields. Issues name the parameter so the form can show them under it.
 */
export function parseStrategyParams(strategyId: string, raw: Record<string, unknown>): ParsedParams {
  const type = builtInStrategies.get(strategyId);
  if (!type) return { success: false, issues: [{ key: '', message: `Unknown strategy "${strategyId}"` }] };
  const fields = describeParams(type.paramsJsonSchema());
  const decoded: Record<string, unknown> = { ...raw };
  const issues: ParamIssue[] = [];
  for (const field of fields) {
    const value = raw[field.key];
    if (isPercent(field) && typeof value === 'number') decoded[field.key] = fromPercent(value);
    if (field.kind !== 'json' || typeof value !== 'string') continue;
    try {
      decoded[field.key] = JSON.parse(value);
    } catch {
      issues.push({ key: field.key, message: 'Not valid JSON' });
    }
  }
  if (issues.length > 0) return { success: false, issues };
  const result = type.paramsSchema.safeParse(decoded);
  if (result.success) return { success: true, params: result.data };
  const percentKeys = new Set(fields.filter(isPercent).map((f) => f.key));
  return {
    success: false,
    issues: result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      return { key, message: issueText(issue, percentKeys.has(key)) };
    }),
  };
}
