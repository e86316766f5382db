import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const DOCS_PREFIX = '/api/docs';

/**
 * OpenAPI document built from the routes' zod schemas, and the Swagger UI page served from the installed
 * package (no CDN): `/api/docs`, document at `/api/docs/json`
 */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Kestrel API',
          description:
            'REST API of the Kestrel server. Authenticated calls carry `Authorization: Bearer <access token>`.',
          version: '0.1.0',
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      staticCSP: true,
      // No call to the public validator badge service, and no https upgrade of assets on a plain-http loopback
      uiConfig: { validatorUrl: null },
      transformStaticCSP: (header) =>
        header
          .replace(/\s*validator\.swagger\.io/g, '')
          .replace(/\s*upgrade-insecure-requests;?/g, '')
          .trim(),
    });
  },
  { name: 'swagger' },
);
