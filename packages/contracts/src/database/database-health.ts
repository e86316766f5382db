import { z } from 'zod';

/** GET /api/v1/database/health: 200 when the database answers, 503 (same shape) when it does not */
export const DatabaseHealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.object({
    reachable: z.boolean(),
    driver: z.enum(['pglite', 'postgres']),
    /** Highest applied migration, null when it could not be read */
    migration_version: z.number().int().nonnegative().nullable(),
    /** Round trip of a trivial query in milliseconds */
    latency_ms: z.number().nonnegative().nullable(),
  }),
});
export type DatabaseHealth = z.infer<typeof DatabaseHealthSchema>;
