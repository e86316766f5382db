import { z } from 'zod';

/** One signed-in device: a refresh-token family with an absolute lifetime */
export const SessionSchema = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  /** True for the session whose access token made this request */
  current: z.boolean(),
});
export type Session = z.infer<typeof SessionSchema>;

/** GET /api/v1/auth/sessions */
export const SessionListResponseSchema = z.object({
  success: z.literal(true),
  sessions: z.array(SessionSchema),
});
export type SessionListResponse = z.infer<typeof SessionListResponseSchema>;

/** DELETE /api/v1/auth/sessions/{id} */
export const SessionParamsSchema = z.strictObject({
  id: z.uuid({ error: 'Session id must be a UUID' }),
});
export type SessionParams = z.infer<typeof SessionParamsSchema>;
