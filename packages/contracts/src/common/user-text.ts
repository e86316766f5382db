import { z } from 'zod';
import { FORBIDDEN_IN_TEXT } from '../auth/limits';

/**
 * The one rule for a user-written string: trimmed, `min` to `max` characters, none of `FORBIDDEN_IN_TEXT`; the
 * messages name the field by `label`
 */
export function userText(label: string, { max, min = 1 }: { max: number; min?: number }) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(min, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((text) => !FORBIDDEN_IN_TEXT.test(text), {
      error: `${label} must not contain control characters, lone surrogates or direction overrides`,
    });
}
