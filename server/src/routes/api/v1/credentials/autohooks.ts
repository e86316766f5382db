import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Every credentials call needs a signed-in user: the vault is per user. Applies to the enclosing scope only */
export default fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', app.authenticate);
  },
  { name: 'credentials-hooks', dependencies: ['auth'] },
);
