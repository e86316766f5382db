/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The page against the real server (Fastify on PGlite): two runtimes are two browsers signed in to one account
import { startTestServer, type TestServer } from '@kestrel/server/testing';
import type { KestrelRuntime } from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRuntime } from '../../../test/runtime';
import AccountPage from '../account';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase';

let server: TestServer;
let apiBaseUrl: string;
const runtimes: KestrelRuntime[] = [];

beforeAll(async () => {
  server = await startTestServer({ clock: 'wall' });
  apiBaseUrl = await server.listen();
}, 60_000);
afterAll(async () => {
  for (const r of runtimes) r.dispose();
  await server?.close();
});

/** A browser of its own (its own storage, so its own session) */
function browser(): KestrelRuntime {
  const runtime = testRuntime(apiBaseUrl);
  runtimes.push(runtime);
  return runtime;
}

async function signedUpPair(email: string) {
  const here = browser();
  expect(await here.session.signUp({ email, password: PASSWORD })).toMatchObject({ success: true });
  const other = browser();
  expect(await other.session.signIn({ email, password: PASSWORD })).toMatchObject({ success: true });
  return { here, other };
}

function renderPage(runtime: KestrelRuntime) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <KestrelRuntimeProvider runtime={runtime}>
      <QueryClientProvider client={queryClient}>
        <AccountPage />
      </QueryClientProvider>
    </KestrelRuntimeProvider>,
  );
  return userEvent.setup();
}

/** Answers wait on argon2 and a machine shared with other test runs */
const slow = { timeout: 10_000 };
const stillSignedIn = async (runtime: KestrelRuntime) => (await runtime.api.get('/api/v1/auth/me')).success;

// Typing is slow in happy-dom and every password check is a real argon2 hash
describe('the account page', { timeout: 30_000 }, () => {
  it('shows the profile, saves a display name, and lists the change in the activity', async () => {
    const { here } = await signedUpPair('profile@example.test');
    const user = renderPage(here);
    const region = screen.getByRole('region', { name: 'Account' });
    expect(region.getAttribute('data-remote')).toBe('account');
    const form = await screen.findByRole('form', { name: 'Profile' }, slow);
    expect((within(form).getByLabelText('Email') as HTMLInputElement).value).toBe('profile@example.test');

    await user.type(within(form).getByLabelText(/^Display name/), 'Ada');
    await user.click(within(form).getByRole('button', { name: 'Save profile' }));
    expect(await within(form).findByRole('status', {}, slow)).toHaveProperty('textContent', 'Profile saved');
    // The shell's stored user follows
    expect(here.session.state.user?.name).toBe('Ada');
    const activity = await screen.findByRole('list', { name: 'Account activity' }, slow);
    await waitFor(
      () => expect(within(activity).getByText('Display name changed to “Ada”')).toBeTruthy(),
      slow,
    );
  });

  it('changes the password: a wrong current one is refused, the right one signs the other browser out', async () => {
    const { here, other } = await signedUpPair('password@example.test');
    const user = renderPage(here);
    const form = await screen.findByRole('form', { name: 'Change password' });
    const fill = async (current: string, next: string, repeat = next) => {
      for (const [label, text] of [
        [/^Current password/, current],
        [/^New password(?! again)/, next],
        [/^New password again/, repeat],
      ] as const) {
        const input = within(form).getByLabelText(label);
        await user.clear(input);
        await user.type(input, text);
      }
      await user.click(within(form).getByRole('button', { name: 'Change password' }));
    };

    await fill(PASSWORD, NEW_PASSWORD, 'something else');
    expect(await within(form).findByText('The two new passwords differ', {}, slow)).toBeTruthy();

    await fill('not my password', NEW_PASSWORD);
    expect((await within(form).findByRole('alert', {}, slow)).textContent).toBe('Password is not correct');
    expect(await stillSignedIn(other)).toBe(true);

    await fill(PASSWORD, NEW_PASSWORD);
    expect((await within(form).findByRole('status', {}, slow)).textContent).toBe(
      'Password changed. 1 other session was signed out.',
    );
    expect(await stillSignedIn(other)).toBe(false);
    expect(other.session.state.status).toBe('signed-out');
    expect(await stillSignedIn(here)).toBe(true);
  });

  it('says the operator has not set up a Telegram bot when the server has no token', async () => {
    const { here } = await signedUpPair('no-telegram@example.test');
    renderPage(here);
    const card = screen.getByRole('region', { name: 'Telegram' });
    expect(
      (
        await within(card).findByText(
          /the operator of this Kestrel server has not set up a Telegram bot/,
          {},
          slow,
        )
      ).textContent,
    ).toContain('KESTREL_TELEGRAM_BOT_TOKEN');
    expect(within(card).queryByRole('button', { name: 'Link a chat' })).toBeNull();
  });

  it('lists the sessions with this one marked, and revokes the other', async () => {
    const { here, other } = await signedUpPair('sessions@example.test');
    const user = renderPage(here);
    const list = await screen.findByRole('list', { name: 'Active sessions' }, slow);
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const mine = items.filter((li) => li.getAttribute('aria-label')?.endsWith('(this device)'));
    expect(mine).toHaveLength(1);
    expect(mine[0]?.textContent).toContain('IP 127.0.0.1');
    expect(within(mine[0] as HTMLElement).queryByRole('button')).toBeNull();

    await user.click(within(list).getByRole('button', { name: /^Revoke / }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1), slow);
    expect(await stillSignedIn(other)).toBe(false);
    const activity = screen.getByRole('list', { name: 'Account activity' });
    await waitFor(() => expect(within(activity).getByText('A session was signed out')).toBeTruthy(), slow);
    expect(screen.getByRole('button', { name: 'Sign out all other sessions' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('deletes the account only with the password and the typed confirmation, then signs out for good', async () => {
    const { here, other } = await signedUpPair('delete@example.test');
    const user = renderPage(here);
    const form = await screen.findByRole('form', { name: 'Delete account' });
    await user.type(within(form).getByLabelText('Password'), PASSWORD);
    await user.type(within(form).getByLabelText('Type DELETE to confirm'), 'delete');
    await user.click(within(form).getByRole('button', { name: 'Delete my account' }));
    expect(await within(form).findByText('Type DELETE to confirm', { selector: 'p' }, slow)).toBeTruthy();
    expect(await stillSignedIn(here)).toBe(true);

    await user.clear(within(form).getByLabelText('Type DELETE to confirm'));
    await user.type(within(form).getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(within(form).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(here.session.state.status).toBe('signed-out'), slow);
    expect(await stillSignedIn(other)).toBe(false);
    const again = browser();
    expect(await again.session.signIn({ email: 'delete@example.test', password: PASSWORD })).toMatchObject({
      success: false,
    });
  });
});
