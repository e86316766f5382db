import { HealthSchema } from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const VERSION = '0.1.0';

/** GET /api/v1/health: liveness only, no database round trip */
const route: FastifyPluginAsyncZod = async (app) => {
  const startedAt = process.hrtime.bigint();
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'Liveness', response: { 200: HealthSchema } } },
    async () => {
      const uptimeNs = process.hrtime.bigint() - startedAt;
      return { status: 'ok' as const, version: VERSION, uptime_s: Number(uptimeNs / 1_000_000n) / 1000 };
    },
  );
};
export default route;
