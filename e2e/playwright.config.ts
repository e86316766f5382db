import { defineConfig } from '@playwright/test';
import { E2E_REMOTES_FILE } from './support/deploy';
import { E2E_API_PORT, E2E_DATA_DIR, E2E_SHELL_PORT } from './support/ports';

const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 2,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${E2E_SHELL_PORT}`,
    trace: 'on-first-retry',
    launchOptions: {
      // Debian's Chromium: nothing may be downloaded here, so Playwright's own browser build is never used
      executablePath: process.env.KESTREL_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' } },
    // Specs that take the server away for a moment (the launcher's restart) run once every other spec is done
    {
      name: 'after-the-suite',
      testDir: './tests-last',
      dependencies: ['chromium'],
      use: { browserName: 'chromium' },
    },
  ],
  // The production builds, each app on its own port, plus the real server: exactly what `./kestrel start` runs
  webServer: {
    command: 'node ../scripts/start.mjs',
    url: `http://127.0.0.1:${E2E_API_PORT}/api/v1/health`,
    env: {
      KESTREL_SHELL_PORT: String(E2E_SHELL_PORT),
      KESTREL_PORT: String(E2E_API_PORT),
      // Inside the checkout (git-ignored), emptied at every start: nothing piles up in the system temp folder
      KESTREL_DATA_DIR: E2E_DATA_DIR,
      KESTREL_FRESH_DATA: '1',
      KESTREL_LOG_LEVEL: 'warn',
      // Every spec's trader shares this one server and its one IP budget at Binance: some forty accounts trading
      // within two minutes would spend Binance's 2,400 a minute, and the server's budget would then answer their
      // reads 429 until the next minute. Ten times the budget, on both sides, keeps the suite about what each page does
      KESTREL_EXCHANGE_WEIGHT_LIMIT: '24000',
      // The webhook spec delivers to a receiver it starts on 127.0.0.1
      KESTREL_WEBHOOKS_ALLOW_PRIVATE: '1',
      // Every spec signs up its own traders, all from 127.0.0.1: far more than a real address makes in an hour
      KESTREL_SIGNUPS_PER_IP_HOUR: '1000',
      // tests/independent-deploy.spec.ts deploys a remote on its own by writing this file
      KESTREL_REMOTES_FILE: E2E_REMOTES_FILE,
      // A second simulator stands in for mainnet (issue 23): the environment switch moves a user between two
      // accounts on two hosts, and no spec can reach real money
      KESTREL_MAINNET_SIMULATOR: '1',
      // The Telegram Bot API stand-in on the API port + 102 (tests/telegram.spec.ts): no spec can message a real chat
      KESTREL_TELEGRAM_SIMULATOR: '1',
    },
    reuseExistingServer: !CI,
    timeout: 120_000,
    stdout: 'pipe',
  },
});
