import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = join(dirname(fileURLToPath(import.meta.url)), 'cli.ts');
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

/** Starts the CLI and resolves with its output once `pattern` shows in it */
function start(args: string[], pattern: RegExp): Promise<RegExpMatchArray> {
  // Run from the package so `tsx` resolves from its own dependencies
  const proc = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: dirname(dirname(CLI)),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KESTREL_TELEGRAM_SIM_ADMIN_TOKEN: '' },
  });
  child = proc;
  let out = '';
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = out.match(pattern);
      if (m) resolve(m);
    });
    proc.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

describe('CLI', () => {
  it('serves the Bot API for its token and the test API behind the printed admin token', async () => {
    const token = '123456:AAE-cli-test';
    const [, url, admin] = await start(
      ['--port', '0', '--token', token, '--bot-username', 'cli_bot'],
      /Bot API (http:\/\/\S+)[\s\S]*admin token (\S+)/,
    );
    const me = await fetch(`${url}/bot${token}/getMe`);
    expect(await me.json()).toMatchObject({ ok: true, result: { id: 123456, username: 'cli_bot' } });
    expect((await fetch(`${url}/_sim/health`)).status).toBe(401);
    const sent = await fetch(`${url}/_sim/updates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sim-admin-token': admin ?? '' },
      body: JSON.stringify({ chatId: 9, text: '/help' }),
    });
    expect(sent.status).toBe(201);
    const updates = await (await fetch(`${url}/bot${token}/getUpdates`)).json();
    expect(updates).toMatchObject({ ok: true, result: [{ message: { chat: { id: 9 }, text: '/help' } }] });
  });

  it('refuses a malformed token with its rule', async () => {
    await expect(start(['--port', '0', '--token', 'no-colon'], /listening/)).rejects.toThrow(
      /<bot id>:<secret>/,
    );
  });
});
