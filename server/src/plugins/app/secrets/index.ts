import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions } from '../../../app';
import { type Keyring, loadKeyring } from '../../../lib/crypto/master-key';

declare module 'fastify' {
  interface FastifyInstance {
    keyring: Keyring;
  }
}

/** The master keyring: from KESTREL_MASTER_KEY, else generated once into the data folder (0600) */
export default fp(
  async (app: FastifyInstance, { config, deps }: AppOptions) => {
    const keyring = deps.keyring ?? (await loadKeyring(config));
    // The id names the key in logs without revealing it
    app.log.info({ master_key_id: keyring.current.id }, 'master key loaded');
    app.decorate('keyring', keyring);
  },
  { name: 'secrets' },
);
