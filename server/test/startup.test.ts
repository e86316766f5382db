import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DatabaseHealthSchema } from '@kestrel/contracts';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Resolves with the listening URL from the server's "Server listening at" log line; rejects if it exits first */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
}

describe('pnpm start on embedded defaults', () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts with nothing installed: PGlite in the data folder, its keys generated 0600 outside it, then stops on SIGTERM', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kestrel-start-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      KESTREL_PORT: '0',
      KESTREL_DATA_DIR: join(dir, 'data'),
      // Where the keys folder defaults to (~/.config/kestrel/keys), inside this test's folder
      XDG_CONFIG_HOME: join(dir, 'config'),
      KESTREL_LOG_LEVEL: 'info',
    };
    delete env.DATABASE_URL;
    delete env.KESTREL_MASTER_KEY;
    delete env.KESTREL_TOKEN_KEY;
    delete env.KESTREL_KEYS_DIR;
    const child = spawn(join(serverDir, 'node_modules/.bin/tsx'), ['src/main.ts'], {
      cwd: serverDir,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await listeningUrl(child);
      const res = await fetch(`${url}/api/v1/database/health`);
      expect(res.status).toBe(200);
      expect(DatabaseHealthSchema.parse(await res.json()).database).toMatchObject({
        reachable: true,
        driver: 'pglite',
      });
      for (const key of ['vault.key', 'token.key']) {
        expect((await stat(join(dir, 'config', 'kestrel', 'keys', key))).mode & 0o777).toBe(0o600);
      }
      expect(await readdir(join(dir, 'data'))).toEqual(['pglite']);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
    }
  }, 120_000);
});
