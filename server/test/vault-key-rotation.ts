import { expect } from 'vitest';
import { rotateMasterKey } from '../src/commands/rotate-master-key';
import { loadConfig } from '../src/config';
import {
  encodeMasterKey,
  generateMasterKey,
  type MasterKey,
  makeKeyring,
} from '../src/lib/crypto/master-key';
import type { Database } from '../src/lib/database/database';
import { buildTestApp, openTestDatabase, type TestApp } from './helper';

/**
 * A vault-key rotation between two apps on a fresh database (`env`: their config): `before` runs on an app that
 * has only the old key, so what it stores is sealed with it; the rotation re-wraps that one row; `after` runs on an
 * app that has only the new key. One token key for both apps, so a session outlives the change (as in production)
 */
export async function acrossVaultKeyRotation<T>(
  env: NodeJS.ProcessEnv,
  before: (app: TestApp) => Promise<T>,
  after: (app: TestApp, stored: T, rotated: { db: Database; newKey: MasterKey }) => Promise<void>,
): Promise<void> {
  const own = await openTestDatabase('pglite');
  const [oldKey, newKey] = [generateMasterKey(), generateMasterKey()];
  const tokenKeyring = makeKeyring([generateMasterKey()]);
  try {
    const first = await buildTestApp(own.db, { keyring: makeKeyring([oldKey]), tokenKeyring }, env);
    let stored: T;
    try {
      stored = await before(first);
    } finally {
      await first.app.close();
    }
    const result = await rotateMasterKey({
      config: loadConfig({ KESTREL_MASTER_KEY: encodeMasterKey(oldKey) }),
      newMasterKey: encodeMasterKey(newKey),
      database: own.db,
    });
    expect(result.rewrapped).toBe(1);
    const second = await buildTestApp(own.db, { keyring: makeKeyring([newKey]), tokenKeyring }, env);
    try {
      await after(second, stored, { db: own.db, newKey });
    } finally {
      await second.app.close();
    }
  } finally {
    await own.cleanup();
  }
}
