import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions } from '../../../app';
import { credentialsRepository } from './credentials-repository';
import { CredentialsService } from './credentials-service';
import { unavailableExchangeProbe } from './exchange-probe';

declare module 'fastify' {
  interface FastifyInstance {
    credentialsService: CredentialsService;
  }
}

/** Wires the credential vault; the exchange probe is the adapter seam (unavailable until the adapter lands) */
export default fp(
  async (app: FastifyInstance, { deps }: AppOptions) => {
    app.decorate(
      'credentialsService',
      new CredentialsService(
        app.db,
        credentialsRepository,
        app.keyring,
        deps.exchange ?? unavailableExchangeProbe,
        app.clock,
      ),
    );
  },
  { name: 'credentials', dependencies: ['database', 'secrets'] },
);
