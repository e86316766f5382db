import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../lib/database/database';
import { migrate } from '../../lib/database/migrate';
import { openDatabase } from '../../lib/database/open-database';
import type { PluginOptions } from '../plugin-options';
import { DatabaseHealthService } from './database-health-service';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    databaseHealth: DatabaseHealthService;
  }
}

/** Opens the database (or takes the one given), applies pending migrations, and closes it with the app if owned */
export default fp(
  async (app: FastifyInstance, { config, deps }: PluginOptions) => {
    const db = deps.database ?? (await openDatabase(config, app.clock));
    if (!deps.database) app.addHook('onClose', () => db.close());
    const version = await migrate(db);
    app.log.info({ driver: db.driver, migration_version: version }, 'database ready');
    app.decorate('db', db);
    app.decorate('databaseHealth', new DatabaseHealthService(db));
  },
  { name: 'database' },
);
