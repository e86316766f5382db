import type { Health } from '@kestrel/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';

const VERSION = '0.1.0';

/** Builds the Fastify app without listening, so tests can `inject` requests */
export async function buildApp(config: ServerConfig): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: config.logLevel } });
  const startedAt = process.hrtime.bigint();

  // CORS for the shell's origins only; the browser app lives on another port than the API
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin && config.corsOrigins.includes(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
      reply.header('access-control-allow-headers', 'authorization, content-type');
      reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    }
    if (request.method === 'OPTIONS') return reply.code(204).send();
  });

  app.get('/api/v1/health', async (): Promise<Health> => {
    const uptimeNs = process.hrtime.bigint() - startedAt;
    return { status: 'ok', version: VERSION, uptime_s: Number(uptimeNs / 1_000_000n) / 1000 };
  });

  return app;
}
