import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database';

/** server/migrations, next to src/ */
export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../migrations');

const DO_FILE = /^(\d{3})\.do\.([a-z0-9-]+)\.sql$/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Reads `NNN.do.<name>.sql` files in version order; a gap or a duplicate version is a packaging bug */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => DO_FILE.test(f)).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const [, version, name] = DO_FILE.exec(file) ?? [];
    migrations.push({
      version: Number(version),
      name: name ?? file,
      sql: await readFile(join(dir, file), 'utf8'),
    });
  }
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`Migration ${m.version} (${m.name}) is out of sequence: expected ${i + 1}`);
  });
  return migrations;
}

// Any constant works: it only has to be the same in every server instance sharing the database
const MIGRATION_LOCK_ID = 74_657_374;

/**
 * Applies the migrations not yet recorded, all in one transaction, under an advisory lock taken before anything
 * else (even `CREATE TABLE IF NOT EXISTS` races between sessions), so that several instances starting together
 * apply each migration exactly once. Returns the version now in force.
 */
export async function migrate(db: Database, migrations?: Migration[]): Promise<number> {
  const all = migrations ?? (await readMigrations());
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version),
    );
    for (const migration of all) {
      if (applied.has(migration.version)) continue;
      // Statements one by one: a parameterised query cannot hold several, and both drivers accept this split
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
  });
  return currentVersion(db);
}

/** Highest applied migration, 0 for an empty database */
export async function currentVersion(db: Pick<Database, 'query'>): Promise<number> {
  const rows = await db.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  return rows[0]?.version ?? 0;
}

/** Splits on semicolons at line ends; our migrations keep to that (no functions with bodies) */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\r?\n|$)/)
    .map((s) =>
      s
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter(Boolean);
}
