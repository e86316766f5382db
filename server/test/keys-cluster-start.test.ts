import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const serverDir = join(import.meta.dirname, '..');

/**
 * Instances of a cluster started together on one empty keys folder (the first start of a deployment): each one
 * creates or reads the vault and token keys. A key file written in place could be read half-written by another
 * process, which then refused to start ("must be base64 of 32 random bytes"; seen in a CI run of
 * bots-processes.test.ts). Separate processes: within one process the file system calls never interleave so. The
 * race is a matter of timing, so the test runs rounds: with the key written in place it failed one run in three here.
 */
describe('instances starting together on an empty keys folder', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'kestrel-keys-cluster-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('all start, with the same vault key and the same token key, and leave no draft file', async () => {
    for (let round = 0; round < 8; round++) {
      const keysDir = join(root, `keys-${round}`);
      const env = { ...process.env, KESTREL_KEYS_DIR: keysDir, KESTREL_DATA_DIR: join(root, 'data') };
      const outputs = await Promise.all(
        Array.from({ length: 6 }, () =>
          run(process.execPath, ['--import', 'tsx', 'test/fixtures/load-keys-child.ts'], {
            cwd: serverDir,
            env,
          }).then(
            (r) => r.stdout.trim(),
            (err: { stdout?: string }) => err.stdout?.trim() ?? String(err),
          ),
        ),
      );
      expect(new Set(outputs).size, outputs.join('\n')).toBe(1);
      expect(outputs[0]).toMatch(/^vault [0-9a-f]+ token [0-9a-f]+$/);
      expect((await readdir(keysDir)).sort()).toEqual(['token.key', 'vault.key']);
    }
  }, 120_000);
});
