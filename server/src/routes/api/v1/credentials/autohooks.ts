import type { FastifyInstance } from 'fastify';

/** Every credentials call needs a signed-in user: the vault is per user */
export default async function credentialsHooks(app: FastifyInstance) {
  app.addHook('onRequest', app.authenticate);
}
