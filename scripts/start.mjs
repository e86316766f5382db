// @ts-check
/**
 * Starts the whole product from its production builds on embedded defaults: the API server, the shell and each
 * remote served as its own static site on its own port (as they are deployed). Prints where to open it.
 * Run through `./kestrel start`, which installs and builds first. Ports and data folder come from the
 * environment (KESTREL_SHELL_PORT, KESTREL_PORT, KESTREL_DATA_DIR, KESTREL_FRESH_DATA) so tests can run a second
 * copy beside it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStaticSite } from '@kestrel/federation/static-site';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const host = process.env.KESTREL_HOST ?? '127.0.0.1';
const shellPort = Number(process.env.KESTREL_SHELL_PORT ?? 3000);
const apiPort = Number(process.env.KESTREL_PORT ?? 8000);
const dataDir = resolve(process.env.KESTREL_DATA_DIR ?? join(repo, '.data'));

/** Remote name → folder and port (shell port + 1…4) */
const remotes = [
  { name: 'dashboard', dir: 'remotes/dashboard', port: shellPort + 1 },
  { name: 'bots', dir: 'remotes/bots', port: shellPort + 2 },
  { name: 'exchange_connect', dir: 'remotes/exchange-connect', port: shellPort + 3 },
  { name: 'account', dir: 'remotes/account', port: shellPort + 4 },
];

const shellOrigin = `http://${host}:${shellPort}`;
const runtimeConfig = {
  apiBaseUrl: `http://${host}:${apiPort}`,
  socketBaseUrl: `ws://${host}:${apiPort}/ws`,
  remotes: Object.fromEntries(remotes.map((r) => [r.name, `http://${host}:${r.port}/mf-manifest.json`])),
};

// KESTREL_FRESH_DATA=1 (the e2e suite): start from an empty data folder, as a new install would
if (process.env.KESTREL_FRESH_DATA === '1') rmSync(dataDir, { recursive: true, force: true });
mkdirSync(join(dataDir, 'server'), { recursive: true });
const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: join(repo, 'server'),
  stdio: 'inherit',
  env: {
    ...process.env,
    KESTREL_HOST: host,
    KESTREL_PORT: String(apiPort),
    KESTREL_DATA_DIR: join(dataDir, 'server'),
    KESTREL_CORS_ORIGINS: `${shellOrigin},http://localhost:${shellPort}`,
  },
});

const sites = await Promise.all([
  serveStaticSite({
    root: join(repo, 'shell/dist'),
    port: shellPort,
    host,
    spa: true,
    json: { '/config.json': runtimeConfig },
  }),
  // spa: a remote's own standalone page has client-side routes too
  ...remotes.map((r) => serveStaticSite({ root: join(repo, r.dir, 'dist'), port: r.port, host, spa: true })),
]);

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  await Promise.all(sites.map((s) => s.close()));
  process.exit(code);
}
server.on('exit', (code) => {
  if (!stopping) {
    console.error(`The API server stopped (exit code ${code}); stopping everything.`);
    void stop(1);
  }
});
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

console.info(`
Kestrel is running.
  Open:       ${shellOrigin}
  API:        ${runtimeConfig.apiBaseUrl} (health: ${runtimeConfig.apiBaseUrl}/api/v1/health)
  Remotes:    ${remotes.map((r) => `${r.name} ${host}:${r.port}`).join(', ')}
  Data:       ${dataDir}
  Sign in:    open the URL above, choose "Create an account" (any email, a password of 8+ characters);
              accounts are kept in the data folder, so sign in with the same details next time.
Press Ctrl+C to stop.
`);
