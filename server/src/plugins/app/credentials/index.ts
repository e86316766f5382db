import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions } from '../../../app';
import { adapterProbe } from '../exchange/adapter-probe';
import { credentialsRepository } from './credentials-repository';
import { CredentialsService } from './credentials-service';

declare module 'fastify' {
  interface FastifyInstance {
    credentialsService: CredentialsService;
  }
}

/** Wires the credential vault; keys are tested through the exchange adapter (tests may pass their own probe) */
export default fp(
  async (app: FastifyInstance, { deps }: AppOptions) => {
    const service = new CredentialsService(
      app.db,
      credentialsRepository,
      app.keyring,
      deps.exchange ?? adapterProbe(app.exchangeAdapter),
      app.clock,
      app.environmentService,
    );
    service.onKeysOpened = (userId, apiKey) => app.keyRefusals.opened(userId, apiKey);
    app.decorate('credentialsService', service);
  },
  { name: 'credentials', dependencies: ['database', 'secrets', 'exchange', 'notifications', 'environment'] },
);
