import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

import type { Clock } from '../clock';
import type { Database } from './database';
import { openPgliteDatabase } from './pglite-database';
import { openPostgresDatabase } from './postgres-database';

/** DATABASE_URL picks PostgreSQL; otherwise PGlite keeps its files in `<dataDir>/pglite` */
export async function openDatabase(
  config: {
    databaseUrl?: string | undefined;
    dataDir: string;
  },
  clock?: Clock,
): Promise<Database> {
  if (config.databaseUrl)
    return openPostgresDatabase({ connectionString: config.databaseUrl, ...(clock ? { clock } : {}) });
  const dir = join(config.dataDir, 'pglite');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return openPgliteDatabase(dir);
}
