import { DatabaseHealthSchema } from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** GET /api/v1/database/health: 200 when the database answers, 503 with the same shape when not */
const route: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Database reachability, migration version and latency',
        response: { 200: DatabaseHealthSchema, 503: DatabaseHealthSchema },
      },
    },
    async (_request, reply) => {
      const health = await app.databaseHealth.check();
      return reply.code(health.status === 'ok' ? 200 : 503).send(health);
    },
  );
};
export default route;
