#!/usr/bin/env -S npx tsx
/**
 * Runs the Telegram stand-in: `tsx src/cli.ts --port 8200 --token 7000000001:AAE-test --bot-username kestrel_bot`.
 * Prints the Bot API base URL (the server's KESTREL_TELEGRAM_API_URL) and the test API's token
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DEFAULT_BOT_USERNAME, DEFAULT_TOKEN, TelegramSim } from './telegram-sim';

const USAGE = `Usage: telegram-sim [--port N] [--host H] [--token T] [--bot-username U] [--admin-token A]
  --port          TCP port (default 8200; 0 picks a free one)
  --host          interface to bind (default 127.0.0.1)
  --token         the bot's token, <bot id>:<secret> (default ${DEFAULT_TOKEN})
  --bot-username  what getMe answers (default ${DEFAULT_BOT_USERNAME})
  --admin-token   the token /_sim requires in header x-sim-admin-token (default: KESTREL_TELEGRAM_SIM_ADMIN_TOKEN,
                  else a random one, printed at start)`;

function fail(message: string): never {
  console.error(`telegram-sim: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'bot-username': { type: 'string' },
      'admin-token': { type: 'string' },
      help: { type: 'boolean' },
    },
  }));
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
if (values.help) {
  console.info(USAGE);
  process.exit(0);
}

const rawPort = (values.port as string | undefined) ?? '8200';
if (!/^\d+$/.test(rawPort) || Number(rawPort) > 65535)
  fail(`--port must be an integer from 0 to 65535, got "${rawPort}"`);

let sim: TelegramSim;
try {
  sim = new TelegramSim({
    ...(values.token ? { token: values.token as string } : {}),
    ...(values['bot-username'] ? { botUsername: values['bot-username'] as string } : {}),
    // The test API writes as any user: never open to whoever reaches the port, so there is always a token
    adminToken:
      (values['admin-token'] as string | undefined) ||
      process.env.KESTREL_TELEGRAM_SIM_ADMIN_TOKEN ||
      randomBytes(16).toString('hex'),
  });
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
const where = await sim.listen(Number(rawPort), (values.host as string | undefined) ?? '127.0.0.1');
console.info(`telegram-sim listening: Bot API ${where.url}  test API ${where.url}/_sim`);
console.info(`bot @${sim.bot.username} (id ${sim.bot.id}), token ${sim.token}`);
console.info(`admin token ${sim.adminToken} (header x-sim-admin-token; JSON bodies only)`);

const stop = () => {
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
