/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The account page's Telegram card against the real server, its bot the Telegram stand-in started here: the code shown,
// the chat's /start from the stand-in, the card linked by itself, events saved, the command record, unlink
import { TelegramSettingsResponseSchema } from '@kestrel/contracts/account';
import { startTestServer, type TestServer } from '@kestrel/server/testing';
import type { KestrelRuntime } from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRuntime } from '../../../test/runtime';
import { startTelegramStandIn, type TelegramStandIn } from '../../../test/telegram-stand-in';
import AccountPage from '../account';

let tg: TelegramStandIn;
let server: TestServer;
let runtime: KestrelRuntime;
/** The bot's answers and the card's polls are wall time: generous, the machine may be loaded */
const slow = { timeout: 15_000 };
const CHAT_ID = 424242;

beforeAll(async () => {
  tg = await startTelegramStandIn('kestrel_card_bot');
  server = await startTestServer({ clock: 'wall', env: tg.env });
  runtime = testRuntime(await server.listen());
  // Just signed up: the password was given a moment ago, so the link code needs no step-up prompt
  expect(
    await runtime.session.signUp({
      email: 'telegram@example.test',
      password: 'correct horse battery staple',
    }),
  ).toMatchObject({ success: true });
}, 60_000);
afterAll(async () => {
  runtime?.dispose();
  await server?.close();
  await tg?.close();
});

function renderPage() {
  render(
    <KestrelRuntimeProvider runtime={runtime}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AccountPage />
      </QueryClientProvider>
    </KestrelRuntimeProvider>,
  );
  return userEvent.setup();
}

const stored = async () => {
  const res = await runtime.api.get('/api/v1/notifications/telegram', {
    schema: TelegramSettingsResponseSchema,
  });
  if (!res.success) throw new Error(res.error);
  return res.data.data;
};

describe('the Telegram card', { timeout: 60_000 }, () => {
  it('links a chat with the code it shows, saves its events, lists its commands and unlinks it', async () => {
    const user = renderPage();
    const card = screen.getByRole('region', { name: 'Telegram' });
    await user.click(await within(card).findByRole('button', { name: 'Link a chat' }, slow));

    const shown = await within(card).findByRole('region', { name: 'Link code' }, slow);
    const code = within(shown).getByTestId('telegram-link-code').textContent ?? '';
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(within(shown).getByRole('link', { name: 'Open in Telegram' }).getAttribute('href')).toBe(
      `https://t.me/kestrel_card_bot?start=${code}`,
    );
    expect(shown.textContent).toContain(`or send /start ${code} to @kestrel_card_bot`);
    expect(within(shown).getByTestId('telegram-code-countdown').textContent).toMatch(/^(10:00|9:\d\d)$/);

    // The user's phone sends the code; the card asks again while the code is shown and turns linked by itself
    await tg.userSends(CHAT_ID, `/start ${code}`);
    expect(await within(card).findByText(`@user${CHAT_ID}`, {}, slow)).toBeTruthy();
    expect(within(card).queryByRole('region', { name: 'Link code' })).toBeNull();
    expect((await tg.sentAfter(CHAT_ID, 0))[0]?.text).toMatch(/^Linked to /);

    // Events: the defaults (everything but fills) ticked; fills added and the kill switch taken off
    const events = within(card).getByRole('form', { name: 'Telegram events' });
    expect(within(events).getByLabelText('Order filled')).toHaveProperty('checked', false);
    expect(within(events).getByLabelText('Kill switch')).toHaveProperty('checked', true);
    await user.click(within(events).getByLabelText('Order filled'));
    await user.click(within(events).getByLabelText('Kill switch'));
    await user.click(within(events).getByRole('button', { name: 'Save events' }));
    expect((await within(events).findByRole('status', {}, slow)).textContent).toBe('Events saved');
    const chat = (await stored()).chat;
    expect(chat?.events).toContain('order_filled');
    expect(chat?.events).not.toContain('kill_switch');

    // A command from the chat shows in the record with its answer, newest first
    await tg.userSends(CHAT_ID, '/help');
    expect((await tg.sentAfter(CHAT_ID, 1))[1]?.text).toContain('/kill');
    const record = await within(card).findByRole('list', { name: 'Telegram commands' }, slow);
    await waitFor(
      () => expect(within(record).getAllByRole('listitem')[0]?.textContent).toContain('/help'),
      slow,
    );
    expect(within(record).getAllByRole('listitem').at(-1)?.textContent).toContain('/start');

    // Unlink through the confirmation: Back keeps the chat, Unlink ends it
    await user.click(within(card).getByRole('button', { name: 'Unlink' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlink the Telegram chat?' });
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect((await stored()).chat).not.toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Unlink' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Unlink the Telegram chat?' })).getByRole('button', {
        name: 'Unlink',
      }),
    );
    expect(await within(card).findByRole('button', { name: 'Link a chat' }, slow)).toBeTruthy();
    expect((await stored()).chat).toBeNull();
  });
});
