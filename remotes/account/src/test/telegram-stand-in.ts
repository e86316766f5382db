import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/**
 * The Telegram Bot API stand-in (packages/telegram-sim) as a process of the test's own, driven over its test API:
 * a remote may not import the stand-in (the "who may import whom" table), and `@kestrel/server/testing` starts no
 * Telegram, so the test gives the server its URL and token in `env` (`KESTREL_TELEGRAM_*`)
 */
export interface TelegramStandIn {
  /** The Bot API base URL: the server's KESTREL_TELEGRAM_API_URL */
  url: string;
  token: string;
  botUsername: string;
  /** The env the server needs to use this bot */
  env: NodeJS.ProcessEnv;
  /** A user writes `text` to the bot from the private chat `chatId` (user name `user<chatId>`) */
  userSends(chatId: number, text: string): Promise<void>;
  /** Waits until the bot has sent more than `after` messages to the chat; all of them */
  sentAfter(chatId: number, after: number, timeoutMs?: number): Promise<{ text?: string }[]>;
  close(): Promise<void>;
}

const PACKAGE_DIR = join(import.meta.dirname, '../../../../packages/telegram-sim');

export async function startTelegramStandIn(botUsername = 'kestrel_test_bot'): Promise<TelegramStandIn> {
  const token = '7000000002:AAE-account-test';
  const adminToken = randomBytes(16).toString('hex');
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--token', token, '--bot-username', botUsername],
    {
      cwd: PACKAGE_DIR,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, KESTREL_TELEGRAM_SIM_ADMIN_TOKEN: adminToken },
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the Telegram stand-in did not start: ${out}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`the Telegram stand-in exited (${code}): ${out}`)));
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      const found = /Bot API (http:\/\/\S+)/.exec(out)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
  const headers = { 'content-type': 'application/json', 'x-sim-admin-token': adminToken };
  return {
    url,
    token,
    botUsername,
    env: { KESTREL_TELEGRAM_BOT_TOKEN: token, KESTREL_TELEGRAM_API_URL: url },
    async userSends(chatId, text) {
      const res = await fetch(`${url}/_sim/updates`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ chatId, text }),
      });
      if (res.status !== 201)
        throw new Error(`the stand-in refused the update: ${res.status} ${await res.text()}`);
    },
    async sentAfter(chatId, after, timeoutMs = 15_000) {
      const res = await fetch(`${url}/_sim/chats/${chatId}/sent?after=${after}&timeoutMs=${timeoutMs}`, {
        headers,
      });
      if (!res.ok) throw new Error(`nothing more sent to ${chatId}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { messages: { text?: string }[] }).messages;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
