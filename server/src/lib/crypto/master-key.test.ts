import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeMasterKey, generateMasterKey, loadKeyring, parseMasterKey } from './master-key';

describe('master key', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kestrel-mk-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is generated once into the data folder with mode 0600, then reused', async () => {
    const first = await loadKeyring({ dataDir: dir });
    const file = join(dir, 'master.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await loadKeyring({ dataDir: dir });
    expect(second.current.id).toBe(first.current.id);
    expect(second.current.key.equals(first.current.key)).toBe(true);
  });

  it('tightens loosened permissions on the key file', async () => {
    const key = generateMasterKey();
    await writeFile(join(dir, 'master.key'), encodeMasterKey(key), { mode: 0o644 });
    const keyring = await loadKeyring({ dataDir: dir });
    expect(keyring.current.id).toBe(key.id);
    expect((await stat(join(dir, 'master.key'))).mode & 0o777).toBe(0o600);
  });

  it('takes KESTREL_MASTER_KEY instead, current first then older keys, and writes no file', async () => {
    const [a, b] = [generateMasterKey(), generateMasterKey()];
    const keyring = await loadKeyring({
      dataDir: dir,
      masterKey: `${encodeMasterKey(a)},${encodeMasterKey(b)}`,
    });
    expect(keyring.current.id).toBe(a.id);
    expect(keyring.byId(b.id)?.key.equals(b.key)).toBe(true);
    await expect(readFile(join(dir, 'master.key'))).rejects.toThrow(/ENOENT/);
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
});
