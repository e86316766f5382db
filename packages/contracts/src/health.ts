import { z } from 'zod';

/** GET /api/v1/health: the server process is up and answering */
export const HealthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptime_s: z.number().nonnegative(),
});
export type Health = z.infer<typeof HealthSchema>;
