import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  encodeMasterKey,
  generateMasterKey,
  loadKeyring,
  loadTokenKeys,
  loadVaultKeys,
  parseMasterKey,
  rotateTokenKeyFile,
} from './master-key';

describe('master key', () => {
  let root: string;
  /** The data folder and, beside it (not inside), the keys folder */
  let dataDir: string;
  let keysDir: string;
  let dirs: { dataDir: string; keysDir: string };
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'kestrel-mk-'));
    dataDir = join(root, 'data');
    keysDir = join(root, 'keys');
    await mkdir(dataDir);
    dirs = { dataDir, keysDir };
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is generated once into the keys folder with mode 0600, then reused; nothing goes into the data folder', async () => {
    const first = await loadKeyring(dirs);
    const file = join(keysDir, 'vault.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dataDir)).toEqual([]);
    const second = await loadKeyring(dirs);
    expect(second.current.id).toBe(first.current.id);
    expect(second.current.key.equals(first.current.key)).toBe(true);
  });

  it('tightens loosened permissions on the key file', async () => {
    const key = generateMasterKey();
    await mkdir(keysDir);
    await writeFile(join(keysDir, 'vault.key'), encodeMasterKey(key), { mode: 0o644 });
    const keyring = await loadKeyring(dirs);
    expect(keyring.current.id).toBe(key.id);
    expect((await stat(join(keysDir, 'vault.key'))).mode & 0o777).toBe(0o600);
  });

  it('takes KESTREL_MASTER_KEY instead, current first then older keys, and writes no file', async () => {
    const [a, b] = [generateMasterKey(), generateMasterKey()];
    const keyring = await loadKeyring({ ...dirs, masterKey: `${encodeMasterKey(a)},${encodeMasterKey(b)}` });
    expect(keyring.current.id).toBe(a.id);
    expect(keyring.byId(b.id)?.key.equals(b.key)).toBe(true);
    await expect(readFile(join(keysDir, 'vault.key'))).rejects.toThrow(/ENOENT/);
  });

  it('rejects a key of the wrong size or alphabet without echoing it', () => {
    const short = Buffer.alloc(16, 7).toString('base64');
    expect(() => parseMasterKey(short)).toThrow(/exactly 32 bytes \(got 16 bytes\)/);
    try {
      parseMasterKey('not base64 at all!');
    } catch (err) {
      expect(String(err)).toMatch(/KESTREL_MASTER_KEY must be base64/);
      expect(String(err)).not.toContain('not base64 at all');
    }
  });

  it('keeps using the key an earlier version left in the data folder, and says loudly that it sits there', async () => {
    const legacy = generateMasterKey();
    await writeFile(join(dataDir, 'master.key'), encodeMasterKey(legacy), { mode: 0o600 });
    const loaded = await loadVaultKeys(dirs);
    // Stored secrets sealed with it still open
    expect(loaded.keyring.current.id).toBe(legacy.id);
    expect(loaded.warnings.join(' ')).toMatch(/vault key is inside the data folder.*move it to/);
    await expect(readFile(join(keysDir, 'vault.key'))).rejects.toThrow(/ENOENT/);

    // Moved as the warning says: the moved key is used and the warning is gone
    await mkdir(keysDir);
    await rename(join(dataDir, 'master.key'), join(keysDir, 'vault.key'));
    const moved = await loadVaultKeys(dirs);
    expect(moved.keyring.current.id).toBe(legacy.id);
    expect(moved.warnings).toEqual([]);
  });

  it('warns when the keys folder is inside the data folder', async () => {
    const loaded = await loadVaultKeys({ dataDir, keysDir: join(dataDir, 'keys') });
    expect(loaded.warnings.join(' ')).toMatch(/keys folder .* is inside the data folder/);
  });

  it('gives the tokens a key of their own, which a rotation replaces while the previous one still verifies', async () => {
    const vault = await loadKeyring(dirs);
    const tokens = (await loadTokenKeys(dirs)).keyring;
    expect(tokens.current.id).not.toBe(vault.current.id);
    expect(tokens.current.key.equals(vault.current.key)).toBe(false);
    expect((await stat(join(keysDir, 'token.key'))).mode & 0o777).toBe(0o600);

    const first = await rotateTokenKeyFile(keysDir);
    expect(first.fromKeyId).toBe(tokens.current.id);
    const afterOne = (await loadTokenKeys(dirs)).keyring;
    expect(afterOne.current.id).toBe(first.toKeyId);
    expect(afterOne.byId(tokens.current.id)).toBeDefined();
    expect((await stat(join(keysDir, 'token.key.previous'))).mode & 0o777).toBe(0o600);

    // A second rotation retires the first key for good
    await rotateTokenKeyFile(keysDir);
    const afterTwo = (await loadTokenKeys(dirs)).keyring;
    expect(afterTwo.byId(tokens.current.id)).toBeUndefined();
    expect(afterTwo.byId(first.toKeyId)).toBeDefined();
  });

  it('takes KESTREL_TOKEN_KEY instead of the file', async () => {
    const key = generateMasterKey();
    const loaded = await loadTokenKeys({ ...dirs, tokenKey: encodeMasterKey(key) });
    expect(loaded.keyring.current.id).toBe(key.id);
    expect(loaded.files).toBeNull();
  });
});
