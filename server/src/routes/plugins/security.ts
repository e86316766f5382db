import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PluginOptions } from '../../core/plugin-options';

/** Security headers on every answer, and CORS for the configured shell origins only */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    await app.register(helmet, {
      // The API answers JSON; only the docs page needs more, and it sets its own policy
      contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      crossOriginResourcePolicy: { policy: 'same-site' },
    });
    await app.register(cors, {
      origin: (origin, cb) => cb(null, origin !== undefined && config.corsOrigins.includes(origin)),
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      // dpop: the browser's key proof on sign-in, sign-up and refresh (core/auth/dpop.ts)
      allowedHeaders: ['authorization', 'content-type', 'dpop'],
      maxAge: 600,
    });
  },
  { name: 'security' },
);
