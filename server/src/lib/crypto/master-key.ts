import { createHash, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';

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

/** The vault key's file in the keys folder, and the next key a rotation writes before it re-wraps the rows */
export const VAULT_KEY_FILE = 'vault.key';
export const NEXT_VAULT_KEY_FILE = 'vault.key.next';
/** Where earlier versions kept the vault key: inside the data folder, so a copy of the folder opened every secret */
export const LEGACY_MASTER_KEY_FILE = 'master.key';
export const LEGACY_NEXT_MASTER_KEY_FILE = 'master.key.next';
/** The access/refresh-token signing key, and the one it replaced (still accepted until the next rotation) */
export const TOKEN_KEY_FILE = 'token.key';
export const PREVIOUS_TOKEN_KEY_FILE = 'token.key.previous';
const NEXT_TOKEN_KEY_FILE = 'token.key.next';

/** Where a file-held key lives, and where a rotation writes the next key before switching to it */
export interface KeyFiles {
  readonly dir: string;
  readonly current: string;
  readonly next: string;
}

export interface LoadedKeys {
  readonly keyring: Keyring;
  /** null when the keys came from the environment */
  readonly files: KeyFiles | null;
  /** Said loudly at start: a key that sits where a copy of the data folder carries it */
  readonly warnings: readonly string[];
}

interface KeyConfig {
  dataDir: string;
  keysDir: string;
}

/** Keys from an environment variable: a comma list, current first, older keys after */
function keysFromEnv(value: string, name: string): Keyring {
  const keys = value
    .split(',')
    .filter((s) => s.trim())
    .map((s, i) => parseMasterKey(s, i === 0 ? name : `${name} (entry ${i + 1})`));
  return makeKeyring(keys);
}

const isInside = (child: string, parent: string) => {
  const path = relative(resolve(parent), resolve(child));
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
};

/**
 * The vault keyring (it wraps the stored exchange secrets' data keys): KESTREL_MASTER_KEY, else `vault.key` in the
 * keys folder, generated on first start with mode 0600. A data folder of an earlier version may still hold the key
 * (`master.key`): it is used, with a warning, until the operator moves it (README: moving the vault key).
 */
export async function loadVaultKeys(
  config: KeyConfig & { masterKey?: string | undefined },
): Promise<LoadedKeys> {
  if (config.masterKey) {
    return { keyring: keysFromEnv(config.masterKey, 'KESTREL_MASTER_KEY'), files: null, warnings: [] };
  }
  const warnings: string[] = [];
  const inKeysDir: KeyFiles = { dir: config.keysDir, current: VAULT_KEY_FILE, next: NEXT_VAULT_KEY_FILE };
  const legacy: KeyFiles = {
    dir: config.dataDir,
    current: LEGACY_MASTER_KEY_FILE,
    next: LEGACY_NEXT_MASTER_KEY_FILE,
  };
  const useLegacy =
    !(await exists(join(inKeysDir.dir, inKeysDir.current))) &&
    (await exists(join(legacy.dir, legacy.current)));
  const files = useLegacy ? legacy : inKeysDir;
  if (useLegacy) {
    warnings.push(
      `The vault key is inside the data folder (${join(legacy.dir, legacy.current)}): anyone with a copy of the ` +
        `folder can read every stored API secret. Stop the server and move it to ${join(config.keysDir, VAULT_KEY_FILE)} ` +
        '(or set KESTREL_MASTER_KEY).',
    );
  } else if (isInside(config.keysDir, config.dataDir)) {
    warnings.push(
      `The keys folder (${config.keysDir}) is inside the data folder: a copy of the data folder carries the keys. ` +
        'Set KESTREL_KEYS_DIR to a folder outside it.',
    );
  }
  const current = await readOrCreateKeyFile(files);
  const next = await readKeyFile(join(files.dir, files.next));
  return {
    keyring: makeKeyring(next && next.id !== current.id ? [current, next] : [current]),
    files,
    warnings,
  };
}

/** The vault keyring only (tools that do not start the server) */
export async function loadKeyring(config: KeyConfig & { masterKey?: string | undefined }): Promise<Keyring> {
  return (await loadVaultKeys(config)).keyring;
}

/**
 * The token keyring, separate from the vault's so that neither key opens the other's data: KESTREL_TOKEN_KEY, else
 * `token.key` in the keys folder (generated on first start, 0600) and `token.key.previous` from the last rotation
 */
export async function loadTokenKeys(
  config: KeyConfig & { tokenKey?: string | undefined },
): Promise<LoadedKeys> {
  if (config.tokenKey) {
    return { keyring: keysFromEnv(config.tokenKey, 'KESTREL_TOKEN_KEY'), files: null, warnings: [] };
  }
  const files: KeyFiles = { dir: config.keysDir, current: TOKEN_KEY_FILE, next: NEXT_TOKEN_KEY_FILE };
  const current = await readOrCreateKeyFile(files);
  const previous = await readKeyFile(join(files.dir, PREVIOUS_TOKEN_KEY_FILE));
  return {
    keyring: makeKeyring(previous && previous.id !== current.id ? [current, previous] : [current]),
    files,
    warnings: [],
  };
}

/**
 * A new token key: the current one becomes `token.key.previous` (tokens it signed stay valid until they expire or
 * the next rotation), the one before is dropped. Returns the new and the retired key ids
 */
export async function rotateTokenKeyFile(keysDir: string): Promise<{ fromKeyId: string; toKeyId: string }> {
  const currentPath = join(keysDir, TOKEN_KEY_FILE);
  const current = await readKeyFile(currentPath);
  if (!current) throw new Error(`No ${TOKEN_KEY_FILE} in ${keysDir}: start the server once to create it`);
  const next = generateMasterKey();
  const nextPath = join(keysDir, NEXT_TOKEN_KEY_FILE);
  await writeFile(nextPath, `${encodeMasterKey(next)}\n`, { mode: 0o600 });
  // Renamed into place like the new key: a server starting meanwhile reads the old previous key or this one whole
  const previousPath = join(keysDir, PREVIOUS_TOKEN_KEY_FILE);
  await writeFile(`${previousPath}.draft`, `${encodeMasterKey(current)}\n`, { mode: 0o600 });
  await rename(`${previousPath}.draft`, previousPath);
  // The rename is the switch: a crash before it leaves the current key in place
  await rename(nextPath, currentPath);
  return { fromKeyId: current.id, toKeyId: next.id };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? false : Promise.reject(err)),
  );
}

async function readOrCreateKeyFile(files: KeyFiles): Promise<MasterKey> {
  await mkdir(files.dir, { recursive: true, mode: 0o700 });
  const path = join(files.dir, files.current);
  return (await readKeyFile(path)) ?? createKeyFile(path);
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
  return parseMasterKey(text, `key file ${basename(path)}`);
}

async function createKeyFile(path: string): Promise<MasterKey> {
  const key = generateMasterKey();
  // Written whole under a name of its own, then linked into place: an instance starting at the same moment sees no
  // key file or the whole key, never a half-written one (it refused to start on that), and a link never replaces a
  // key another instance put there first
  const draft = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.draft`;
  await writeFile(draft, `${encodeMasterKey(key)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, path);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const existing = await readKeyFile(path);
    if (!existing) throw err;
    return existing;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}
