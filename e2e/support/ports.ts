import { join } from 'node:path';

/**
 * Ports of the copy the e2e suite starts; apart from `./kestrel start`'s defaults so both can run at once.
 * `KESTREL_E2E_SHELL_PORT` moves the whole set (remotes +1…4, API +80, simulator API +100), so two checkouts can run
 * their suites side by side without one reusing the other's servers.
 */
/** The e2e copy's data folder (inside the checkout, git-ignored; emptied at every start) */
export const E2E_DATA_DIR = join(import.meta.dirname, '../../.data/e2e');

export const E2E_SHELL_PORT = Number(process.env.KESTREL_E2E_SHELL_PORT ?? 4300);
export const E2E_API_PORT = E2E_SHELL_PORT + 80;
/** The Binance simulator beside the server (scripts/start.mjs: API port + 100); its admin API is under `/_sim` */
export const E2E_SIM_PORT = E2E_API_PORT + 100;
/**
 * The Telegram Bot API stand-in (scripts/start.mjs, KESTREL_TELEGRAM_SIMULATOR=1: API port + 102, bot
 * `@kestrel_e2e_bot`); its test API is under `/_sim` with the simulator's admin token
 */
export const E2E_TELEGRAM_PORT = E2E_API_PORT + 102;

/** Remote name → the port its static site listens on (shell port + 1…4, as scripts/start.mjs assigns) */
export const E2E_REMOTE_PORTS = {
  dashboard: E2E_SHELL_PORT + 1,
  bots: E2E_SHELL_PORT + 2,
  exchange_connect: E2E_SHELL_PORT + 3,
  account: E2E_SHELL_PORT + 4,
} as const;

export const remoteOrigin = (name: keyof typeof E2E_REMOTE_PORTS) =>
  `http://127.0.0.1:${E2E_REMOTE_PORTS[name]}`;
