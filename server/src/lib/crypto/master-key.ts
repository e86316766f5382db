import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const KEY_BYTES = 32;

/** A 256-bit key wrapping the per-credential data keys; `id` names it in stored rows without revealing it */
export interface MasterKey {
  readonly id: string;
  readonly key: Buffer;
}

/** The key new data is sealed with, plus older ones still able to open rows written before a rotation */
export interface Keyring {
  readonly current: MasterKey;
  byId(id: string): MasterKey | undefined;
  readonly all: readonly MasterKey[];
}

export function masterKeyFromBytes(key: Buffer): MasterKey {
  if (key.length !== KEY_BYTES) throw new Error(`A master key must be exactly ${KEY_BYTES} bytes`);
  // A hash of the key under a fixed label: stable, short, and useless for recovering the key
  const id = createHash('sha256').update('kestrel master key id v1\0').update(key).digest('hex').slice(0, 16);
  return { id, key };
}

/** Parses base64 (or base64url) of 32 bytes; the error names the variable, never the value */
export function parseMasterKey(text: string, name = 'KESTREL_MASTER_KEY'): MasterKey {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) throw new Error(`${name} must be base64 of 32 random bytes`);
  const bytes = Buffer.from(trimmed, trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64');
  if (bytes.length !== KEY_BYTES) {
    throw new Error(`${name} must be base64 of exactly ${KEY_BYTES} bytes (got ${bytes.length} bytes)`);
  }
  return masterKeyFromBytes(bytes);
}

export function generateMasterKey(): MasterKey {
  return masterKeyFromBytes(randomBytes(KEY_BYTES));
}

export function encodeMasterKey(key: MasterKey): string {
  return key.key.toString('base64');
}

export function makeKeyring(keys: readonly MasterKey[]): Keyring {
  const [current] = keys;
  if (!current) throw new Error('A keyring needs at least one master key');
  const byId = new Map(keys.map((k) => [k.id, k]));
  return { current, all: keys, byId: (id) => byId.get(id) };
}

export const MASTER_KEY_FILE = 'master.key';
/** Written before a rotation re-wraps the rows and renamed over master.key after; kept readable if a rotation dies */
export const NEXT_MASTER_KEY_FILE = 'master.key.next';

/**
 * The keyring from configuration: KESTREL_MASTER_KEY (a comma list, current first, older keys after) or else the
 * key file in the data folder, generated on first start with mode 0600.
 */
export async function loadKeyring(config: {
  masterKey?: string | undefined;
  dataDir: string;
}): Promise<Keyring> {
  if (config.masterKey) {
    const keys = config.masterKey
      .split(',')
      .filter((s) => s.trim())
      .map((s, i) =>
        parseMasterKey(s, i === 0 ? 'KESTREL_MASTER_KEY' : `KESTREL_MASTER_KEY (entry ${i + 1})`),
      );
    return makeKeyring(keys);
  }
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const path = join(config.dataDir, MASTER_KEY_FILE);
  const current = await readKeyFile(path).then(
    (key) => key ?? createKeyFile(path),
    (err: unknown) => Promise.reject(err),
  );
  const next = await readKeyFile(join(config.dataDir, NEXT_MASTER_KEY_FILE));
  return makeKeyring(next && next.id !== current.id ? [current, next] : [current]);
}

async function readKeyFile(path: string): Promise<MasterKey | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  // Someone loosened the permissions: tighten them again rather than refuse to start
  if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  return parseMasterKey(text, `master key file ${MASTER_KEY_FILE}`);
}

async function createKeyFile(path: string): Promise<MasterKey> {
  const key = generateMasterKey();
  try {
    // 'wx': two instances starting together on one folder must not overwrite each other's key
    await writeFile(path, `${encodeMasterKey(key)}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const existing = await readKeyFile(path);
    if (!existing) throw err;
    return existing;
  }
}
