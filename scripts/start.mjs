// @ts-check
/**
 * Starts the whole product from its production builds on embedded defaults: the API server, the shell and each
 * remote served as its own static site on its own port (as they are deployed). Prints where to open it.
 * Run through `./kestrel start`, which installs and builds first. Ports and data folder come from the
 * environment (KESTREL_SHELL_PORT, KESTREL_PORT, KESTREL_DATA_DIR, KESTREL_FRESH_DATA) so tests can run a second
 * copy beside it. Unless KESTREL_EXCHANGE_ENV names testnet or mainnet, the Binance simulator runs beside the server
 * on KESTREL_SIM_PORT (API port + 100) with a demo account whose key and secret are printed.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const defaultRemotes = Object.fromEntries(
  remotes.map((r) => [r.name, `http://${host}:${r.port}/mf-manifest.json`]),
);

/**
 * Where each remote is deployed. KESTREL_REMOTES_FILE names a JSON file of remote name → its mf-manifest.json URL,
 * or `{ "entry": URL, "sharedRuntime": "^0.2.0" }` to also state the shared-runtime versions its build must be made
 * for (any subset of the remotes). It is read again on every request for config.json: deploying a remote on its
 * own, or rolling it back, is writing that file; pages pick it up on their next load, with no rebuild or restart.
 */
const remotesFile = process.env.KESTREL_REMOTES_FILE ? resolve(process.env.KESTREL_REMOTES_FILE) : undefined;
/** @type {{ remotes: Record<string, string>, sharedRuntimeRanges: Record<string, string> }} */
const defaultDeployment = { remotes: defaultRemotes, sharedRuntimeRanges: {} };
let lastGoodDeployment = defaultDeployment;
function currentDeployment() {
  if (!remotesFile || !existsSync(remotesFile)) return defaultDeployment;
  try {
    const file = JSON.parse(readFileSync(remotesFile, 'utf8'));
    const deployment = { remotes: { ...defaultRemotes }, sharedRuntimeRanges: {} };
    for (const [name, value] of Object.entries(file)) {
      if (!(name in defaultRemotes))
        throw new Error(`"${name}" is no remote (${Object.keys(defaultRemotes)})`);
      const { entry, sharedRuntime } = typeof value === 'string' ? { entry: value } : value;
      if (typeof entry !== 'string' || !/^https?:\/\/.+\/mf-manifest\.json$/.test(entry)) {
        throw new Error(`${name}: "${entry}" is not the http(s) URL of an mf-manifest.json`);
      }
      deployment.remotes[name] = entry;
      if (sharedRuntime !== undefined) {
        if (typeof sharedRuntime !== 'string' || !/^[\^~]?\d+\.\d+\.\d+$/.test(sharedRuntime)) {
          throw new Error(`${name}: sharedRuntime "${sharedRuntime}" is not ^1.2.3, ~1.2.3 or 1.2.3`);
        }
        deployment.sharedRuntimeRanges[name] = sharedRuntime;
      }
    }
    lastGoodDeployment = deployment;
  } catch (err) {
    // A half-written or wrong file must not take the site down: keep serving the last good addresses
    console.error(
      `${remotesFile}: ${err instanceof Error ? err.message : err}; keeping the previous addresses`,
    );
  }
  return lastGoodDeployment;
}

const runtimeConfig = () => ({
  apiBaseUrl: `http://${host}:${apiPort}`,
  socketBaseUrl: `ws://${host}:${apiPort}/ws`,
  ...currentDeployment(),
});

/** What the pages may load and talk to: the shell and the remotes' sites, the API and its socket, nothing else */
const csp = () => {
  const remoteOrigins = Object.values(currentDeployment().remotes).map((url) => new URL(url).origin);
  return {
    scripts: [shellOrigin, ...remotes.map((r) => `http://${host}:${r.port}`), ...remoteOrigins],
    connect: [`http://${host}:${apiPort}`, `ws://${host}:${apiPort}`],
  };
};

// KESTREL_FRESH_DATA=1 (the e2e suite): start from an empty data folder, as a new install would
if (process.env.KESTREL_FRESH_DATA === '1') rmSync(dataDir, { recursive: true, force: true });
mkdirSync(join(dataDir, 'server'), { recursive: true });

let stopping = false;
/** @type {import('node:child_process').ChildProcess | undefined} The API server of the moment (it is restarted) */
let server;
/**
 * The launcher's own failure while starting (a page's folder missing, a port taken, the simulator not answering)
 * takes its children with it, saying why: none is left running without the launcher that would stop it
 */
function failedToStart(/** @type {unknown} */ err) {
  console.error(`Kestrel could not start: ${err instanceof Error ? err.message : String(err)}`);
  stopping = true;
  server?.kill('SIGTERM');
  for (const child of sims) child.kill('SIGTERM');
  process.exit(1);
}
process.on('uncaughtException', failedToStart);
process.on('unhandledRejection', failedToStart);
/** True once everything is started; before that a failure just exits */
let started = false;

const exchangeEnv = process.env.KESTREL_EXCHANGE_ENV || 'simulator';
const simPort = Number(process.env.KESTREL_SIM_PORT || apiPort + 100);
const testnetIsBinance = ['1', 'true', 'on', 'yes'].includes(process.env.KESTREL_TESTNET ?? '');
/**
 * KESTREL_MAINNET_SIMULATOR=1 (the e2e suite only): a second simulator on the simulator port + 1 stands in for
 * mainnet, with its own demo account, so switching environments can be tried without real money
 */
const mainnetSimPort = process.env.KESTREL_MAINNET_SIMULATOR === '1' ? simPort + 1 : undefined;
/** @type {import('node:child_process').ChildProcess[]} */
const sims = [];
/** @type {{ apiKey: string, secretKey: string } | undefined} */
let demo;
/** @type {{ apiKey: string, secretKey: string } | undefined} */
let mainnetDemo;
/** The simulators' admin token (both take the same one; start prints it) */
const simAdminToken = simTokenOf(dataDir);
function startSimulator(/** @type {number} */ port) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli.ts',
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      // A year, the simulator's own default: an AI agent's default training window at 1h is ~208 days, and its
      // walk-forward evidence needs out-of-sample months after it
      '--history-days',
      '365',
      '--admin-token',
      simAdminToken,
      // The server's budget (KESTREL_EXCHANGE_WEIGHT_LIMIT) must be the simulator's, or one of them refuses first
      ...(process.env.KESTREL_EXCHANGE_WEIGHT_LIMIT
        ? ['--weight-limit', process.env.KESTREL_EXCHANGE_WEIGHT_LIMIT]
        : []),
    ],
    { cwd: join(repo, 'packages/exchange-sim'), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`The exchange simulator stopped (exit code ${code}); stopping everything.`);
      if (started) void stop(1);
      else process.exit(1);
    }
  });
  sims.push(child);
}
if (exchangeEnv === 'simulator' && !process.env.KESTREL_EXCHANGE_BASE_URL && !testnetIsBinance) {
  startSimulator(simPort);
  demo = await createDemoAccount(`http://127.0.0.1:${simPort}`, 'sim-demo-account.json', '10000');
}
if (mainnetSimPort) {
  startSimulator(mainnetSimPort);
  mainnetDemo = await createDemoAccount(
    `http://127.0.0.1:${mainnetSimPort}`,
    'sim-mainnet-account.json',
    '50000',
  );
}

/**
 * KESTREL_TELEGRAM_SIMULATOR=1 (the e2e suite only): the Telegram Bot API stand-in (packages/telegram-sim) on the API
 * port + 102 with the simulators' admin token, so linking a chat and its commands can be tried without Telegram
 */
const telegramSim =
  process.env.KESTREL_TELEGRAM_SIMULATOR === '1'
    ? { port: apiPort + 102, token: '7000000001:AAE-e2e', botUsername: 'kestrel_e2e_bot' }
    : undefined;
if (telegramSim) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli.ts',
      '--port',
      String(telegramSim.port),
      '--host',
      '127.0.0.1',
      '--token',
      telegramSim.token,
      '--bot-username',
      telegramSim.botUsername,
      '--admin-token',
      simAdminToken,
    ],
    { cwd: join(repo, 'packages/telegram-sim'), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`The Telegram stand-in stopped (exit code ${code}); stopping everything.`);
      if (started) void stop(1);
      else process.exit(1);
    }
  });
  sims.push(child);
}

/**
 * The token of the simulator's admin API (`/_sim`, header x-sim-admin-token): KESTREL_SIM_ADMIN_TOKEN, else made
 * once into `<data>/sim-admin-token` (0600) so scripts and the e2e suite can read it
 */
function simTokenOf(/** @type {string} */ dir) {
  if (process.env.KESTREL_SIM_ADMIN_TOKEN) return process.env.KESTREL_SIM_ADMIN_TOKEN;
  const file = join(dir, 'sim-admin-token');
  if (!existsSync(file)) writeFileSync(file, randomBytes(16).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * The simulator keeps accounts in memory: the demo key and secret are generated once into the data folder and the
 * account is re-created with them on every start, so keys a user stored in Kestrel keep working after a restart.
 * Futures on, withdrawals off, 10 000 USDT.
 */
async function createDemoAccount(
  /** @type {string} */ base,
  /** @type {string} */ fileName,
  /** @type {string} */ usdt,
) {
  const file = join(dataDir, fileName);
  if (!existsSync(file)) {
    const keys = { apiKey: randomBytes(32).toString('hex'), secretKey: randomBytes(32).toString('hex') };
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  }
  const keys = JSON.parse(readFileSync(file, 'utf8'));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${base}/_sim/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-sim-admin-token': simAdminToken ?? '' },
        body: JSON.stringify({
          ...keys,
          balances: { USDT: usdt },
          permissions: { enableFutures: true, enableWithdrawals: false },
        }),
      });
      if (res.ok) return keys;
      throw new Error(`the simulator refused the demo account: ${res.status} ${await res.text()}`);
    } catch (err) {
      if (/** @type {{ cause?: { code?: string } }} */ (err).cause?.code !== 'ECONNREFUSED') throw err;
      if (Date.now() > deadline) throw new Error(`the simulator at ${base} did not start within 60 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const serverEnv = {
  ...process.env,
  KESTREL_HOST: host,
  KESTREL_PORT: String(apiPort),
  KESTREL_DATA_DIR: join(dataDir, 'server'),
  KESTREL_CORS_ORIGINS: `${shellOrigin},http://localhost:${shellPort}`,
  KESTREL_EXCHANGE_ENV: exchangeEnv,
  KESTREL_SIM_PORT: String(simPort),
  ...(mainnetSimPort
    ? { KESTREL_MAINNET: '1', KESTREL_MAINNET_BASE_URL: `http://127.0.0.1:${mainnetSimPort}` }
    : {}),
  ...(telegramSim
    ? {
        KESTREL_TELEGRAM_BOT_TOKEN: telegramSim.token,
        KESTREL_TELEGRAM_API_URL: `http://127.0.0.1:${telegramSim.port}`,
      }
    : {}),
};

/**
 * The API server, supervised: when it dies (a crash, kill -9, out of memory) it is started again after a backoff
 * (1 s, doubling to 30 s; back to 1 s once it has run a minute), while the simulator, whose accounts and orders
 * live only in its memory, and the pages keep running. Its own data (orders, bots) is on disk: it resumes where it
 * stood. Five deaths in a row within seconds of starting (a setting it cannot start with) stop everything, saying so
 */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** Running this long counts as healthy: the next death waits only the first backoff again */
const HEALTHY_AFTER_MS = 60_000;
const QUICK_DEATHS_MAX = 5;
/** The server's pid, for operators and the launcher's test */
const serverPidFile = join(dataDir, 'server.pid');
let restartDelay = RESTART_FIRST_MS;
let quickDeaths = 0;
server = startServer();

function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(repo, 'server'),
    stdio: 'inherit',
    env: serverEnv,
  });
  const since = Date.now();
  if (child.pid !== undefined) writeFileSync(serverPidFile, `${child.pid}\n`);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    const ran = Date.now() - since;
    if (ran >= HEALTHY_AFTER_MS) {
      restartDelay = RESTART_FIRST_MS;
      quickDeaths = 0;
    }
    quickDeaths += ran < 10_000 ? 1 : 0;
    const how = signal ? `killed by ${signal}` : `exit code ${code}`;
    if (quickDeaths >= QUICK_DEATHS_MAX) {
      console.error(
        `The API server stopped (${how}) within seconds of starting, ${quickDeaths} times in a row: its log above says why. Stopping everything.`,
      );
      void stop(1);
      return;
    }
    console.error(
      `The API server stopped (${how}) after ${Math.round(ran / 1000)} s; starting it again in ${restartDelay / 1000} s. ` +
        'The simulator and the pages keep running.',
    );
    const wait = restartDelay;
    restartDelay = Math.min(RESTART_MAX_MS, restartDelay * 2);
    setTimeout(() => {
      if (!stopping) server = startServer();
    }, wait);
  });
  return child;
}

const sites = await Promise.all([
  serveStaticSite({
    root: join(repo, 'shell/dist'),
    port: shellPort,
    host,
    spa: true,
    json: { '/config.json': runtimeConfig },
    csp,
  }),
  // spa: a remote's own standalone page has client-side routes too
  ...remotes.map((r) =>
    serveStaticSite({ root: join(repo, r.dir, 'dist'), port: r.port, host, spa: true, csp }),
  ),
]);

started = true;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  server?.kill('SIGTERM');
  for (const child of sims) child.kill('SIGTERM');
  await Promise.all(sites.map((s) => s.close()));
  process.exit(code);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

console.info(`
Kestrel is running.
  Open:       ${shellOrigin}
  API:        http://${host}:${apiPort} (health: http://${host}:${apiPort}/api/v1/health)
  Remotes:    ${remotes.map((r) => `${r.name} ${host}:${r.port}`).join(', ')}
  Data:       ${dataDir} (the API server restarts by itself should it die; its pid is in ${serverPidFile})
  Exchange:   ${
    demo
      ? `Binance simulator at http://127.0.0.1:${simPort} (demo account, 10000 USDT, withdrawals off)
  Demo API key:     ${demo.apiKey}
  Demo secret key:  ${demo.secretKey}
  Simulator admin:  http://127.0.0.1:${simPort}/_sim, header x-sim-admin-token: ${simAdminToken}
              (JSON bodies only; KESTREL_SIM_ADMIN_TOKEN, else kept in <data>/sim-admin-token)
              (after signing in, paste them into the Connect Exchange window that opens, or later
               in Settings → Binance → Connect Exchange)`
      : `${testnetIsBinance ? 'Binance testnet' : exchangeEnv}${process.env.KESTREL_EXCHANGE_BASE_URL ? ` at ${process.env.KESTREL_EXCHANGE_BASE_URL}` : ''}`
  }
  Mainnet:    ${
    mainnetDemo
      ? `a second simulator standing in for mainnet at http://127.0.0.1:${mainnetSimPort} (50000 USDT)
  Mainnet stand-in API key:    ${mainnetDemo.apiKey}
  Mainnet stand-in secret key: ${mainnetDemo.secretKey}`
      : ['1', 'true', 'on', 'yes'].includes(process.env.KESTREL_MAINNET ?? '') || exchangeEnv === 'mainnet'
        ? 'Binance (fapi.binance.com): REAL MONEY for users who switch to mainnet'
        : 'not configured (KESTREL_MAINNET=1 enables it); every user trades on testnet'
  }
  Telegram:   ${
    telegramSim
      ? `the Bot API stand-in at http://127.0.0.1:${telegramSim.port} (bot @${telegramSim.botUsername}; its test API /_sim, the simulator admin token)`
      : process.env.KESTREL_TELEGRAM_BOT_TOKEN
        ? `a bot (KESTREL_TELEGRAM_BOT_TOKEN)${process.env.KESTREL_TELEGRAM_API_URL ? ` at ${process.env.KESTREL_TELEGRAM_API_URL}` : ''}`
        : 'not configured (KESTREL_TELEGRAM_BOT_TOKEN enables it)'
  }
  Sign in:    open the URL above, choose "Create an account" (any email, a password of 8+ characters);
              accounts are kept in the data folder, so sign in with the same details next time.
Press Ctrl+C to stop.
`);
