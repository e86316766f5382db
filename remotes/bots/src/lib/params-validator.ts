import type { z } from 'zod';

/**
 * Checks a strategy's parameters as the server will (the route passes the strategy-params feature's validator).
 * Issues carry the parameter's key so they show under that field.
 */
export type ParamsValidator = (
  strategy: string,
  raw: Record<string, unknown>,
) =>
  | { success: true; params: Record<string, unknown> }
  | { success: false; issues: { key: string; message: string }[] };

/**
 * A form's parameter check inside its schema's `superRefine`: each issue under its parameter's field (`params.x`),
 * or under the strategy when it names none
 */
export function addParamsIssues(
  ctx: z.RefinementCtx,
  validateParams: ParamsValidator,
  values: { strategy: string; params: Record<string, unknown> },
): void {
  const parsed = validateParams(values.strategy, values.params);
  if (parsed.success) return;
  for (const issue of parsed.issues) {
    ctx.addIssue({
      code: 'custom',
      path: issue.key ? ['params', issue.key] : ['strategy'],
      message: issue.message,
    });
  }
}
