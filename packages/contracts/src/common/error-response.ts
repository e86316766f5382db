import { z } from 'zod';

/** One problem found in a request, e.g. `{ path: 'body.email', message: 'Invalid email address' }` */
export const ErrorIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});
export type ErrorIssue = z.infer<typeof ErrorIssueSchema>;

/**
 * Every non-2xx answer of the API. The browser shows `detail` (else `message`), so both carry the same
 * human-readable sentence; `code` is stable for programs, `issues` lists each invalid field.
 */
export const ErrorResponseSchema = z.object({
  success: z.literal(false),
  detail: z.string(),
  message: z.string(),
  code: z.string(),
  issues: z.array(ErrorIssueSchema).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** A plain acknowledgement, e.g. after logout */
export const MessageResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/** Every 2xx answer that carries data: `{ success: true, data, message }` */
export const okResponse = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), data, message: z.string() });

/** A 2xx answer that carries data and no message: `{ success: true, data }` (market data, backtests, optimisations) */
export const dataResponse = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
