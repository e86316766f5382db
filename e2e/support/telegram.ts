import { randomInt } from 'node:crypto';
import { E2E_TELEGRAM_PORT } from './ports';
import { adminHeaders } from './sim';

/** The Telegram stand-in's test API (scripts/start.mjs, KESTREL_TELEGRAM_SIMULATOR=1), the simulator's admin token */
const TELEGRAM_SIM = `http://127.0.0.1:${E2E_TELEGRAM_PORT}/_sim`;

/** The bot the e2e copy's server talks to */
export const E2E_BOT_USERNAME = 'kestrel_e2e_bot';

/** A private chat of the test's own: the stand-in is shared by both workers */
export const uniqueChatId = () => randomInt(100_000_000, 2_000_000_000);

/** A user writes `text` to the bot from `chatId` (the stand-in names the user `user<chatId>`) */
export async function tgUserSends(chatId: number, text: string): Promise<void> {
  const res = await fetch(`${TELEGRAM_SIM}/updates`, {
    method: 'POST',
    headers: adminHeaders(),
    body: JSON.stringify({ chatId, text }),
  });
  if (res.status !== 201)
    throw new Error(`The stand-in refused the update: ${res.status} ${await res.text()}`);
}

/**
 * Every message the bot sent to `chatId`: at once, or once there are more than `after` (the stand-in waits up to
 * `timeoutMs`, then 408: thrown)
 */
export async function tgSent(chatId: number, after?: number, timeoutMs = 15_000): Promise<string[]> {
  const wait = after === undefined ? '' : `?after=${after}&timeoutMs=${timeoutMs}`;
  const res = await fetch(`${TELEGRAM_SIM}/chats/${chatId}/sent${wait}`, { headers: adminHeaders() });
  const body = (await res.json()) as { messages?: { text?: string }[]; error?: string };
  if (!res.ok) throw new Error(`Nothing more from the bot in chat ${chatId}: ${res.status} ${body.error}`);
  return (body.messages ?? []).map((m) => m.text ?? '');
}

/**
 * The user sends `text` and gets the bot's first message afterwards that matches `match` (a notice the command
 * caused, such as the kill switch's, may come before or after its answer)
 */
export async function tgAsk(chatId: number, text: string, match: RegExp = /[\s\S]/): Promise<string> {
  const before = (await tgSent(chatId)).length;
  await tgUserSends(chatId, text);
  for (let seen = before; ; ) {
    const all = await tgSent(chatId, seen);
    const found = all.slice(before).find((m) => match.test(m));
    if (found !== undefined) return found;
    seen = all.length;
  }
}
