import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PluginOptions } from '../plugin-options';
import { environmentRepository } from './environment-repository';
import { EnvironmentService } from './environment-service';

declare module 'fastify' {
  interface FastifyInstance {
    environmentService: EnvironmentService;
  }
}

/** Wires each user's trading environment (testnet / mainnet) over the configured exchange targets */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    app.decorate(
      'environmentService',
      new EnvironmentService(app.db, environmentRepository, config.exchangeTargets, app.clock),
    );
  },
  { name: 'environment', dependencies: ['database'] },
);
