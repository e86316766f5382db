import type { DatabaseHealth } from '@kestrel/contracts';
import type { Database } from '../../lib/database/database';
import { currentVersion } from '../../lib/database/migrate';

/** Probes the database: a trivial round trip, timed, and the applied migration version */
export class DatabaseHealthService {
  constructor(private readonly db: Database) {}

  async check(): Promise<DatabaseHealth> {
    try {
      const started = performance.now();
      await this.db.query('SELECT 1');
      const latency = performance.now() - started;
      const version = await currentVersion(this.db);
      return {
        status: 'ok',
        database: {
          reachable: true,
          driver: this.db.driver,
          migration_version: version,
          latency_ms: Math.round(latency * 1000) / 1000,
        },
      };
    } catch {
      return {
        status: 'unavailable',
        database: { reachable: false, driver: this.db.driver, migration_version: null, latency_ms: null },
      };
    }
  }
}
