import { expect, type Page, test } from '@playwright/test';
import { apiAs, signUp, type TestUser } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { createSimAccount, type SimKeys, simSignedGet } from '../support/sim';
import { E2E_BOT_USERNAME, tgAsk, tgSent, tgUserSends, uniqueChatId } from '../support/telegram';

/** The simulator's own record of the account's ETHUSDT position (Binance's positionRisk) */
async function ethPosition(keys: SimKeys): Promise<number> {
  const rows = await simSignedGet<{ symbol: string; positionAmt: string }[]>(keys, '/fapi/v3/positionRisk', {
    symbol: 'ETHUSDT',
  });
  return rows.reduce((sum, r) => sum + Number(r.positionAmt), 0);
}

/** "Link a chat" on the card, the password again if the server asks; the code the card shows */
async function linkCodeFromCard(page: Page, user: TestUser): Promise<string> {
  const card = page.getByRole('region', { name: 'Telegram' });
  await card.getByRole('button', { name: 'Link a chat' }).click();
  const shown = card.getByRole('region', { name: 'Link code' });
  const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(shown.or(stepUp)).toBeVisible();
  if (await stepUp.isVisible()) {
    await stepUp.getByLabel('Password').fill(user.password);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
  }
  const code = ((await shown.getByTestId('telegram-link-code').textContent()) ?? '').trim();
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  await expect(shown.getByRole('link', { name: 'Open in Telegram' })).toHaveAttribute(
    'href',
    `https://t.me/${E2E_BOT_USERNAME}?start=${code}`,
  );
  await expect(shown).toContainText(`or send /start ${code} to @${E2E_BOT_USERNAME}`);
  await expect(shown).toContainText(/Expires in (10:00|9:\d\d)/);
  return code;
}

test('Telegram: a chat linked from the card on /account reads the account on /status and flattens it with /kill confirm', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // Its own account and chat: the kill switch closes everything the account holds, and the stand-in is shared
  const keys = await createSimAccount({ balances: { USDT: '4321' }, permissions: { enableFutures: true } });
  const chatId = uniqueChatId();
  const user = await signUp(page, { keepConnectModal: true });
  await connectBinance(page, keys);

  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Telegram' });
  const code = await linkCodeFromCard(page, user);

  // The phone sends the code: the card, asking again while the code is shown, turns linked without a reload
  await tgUserSends(chatId, `/start ${code}`);
  await expect(card.getByTestId('telegram-chat')).toHaveText(`@user${chatId}`);
  await expect(card.getByRole('region', { name: 'Link code' })).toHaveCount(0);
  expect((await tgSent(chatId, 0))[0]).toMatch(new RegExp(`^Linked to ${user.name}`));

  // The account's figures, as the dashboard reads them from the exchange
  const status = await tgAsk(chatId, '/status', /^Account \(testnet\)/);
  expect(status).toContain('wallet 4,321.00');
  expect(status).toContain('Open positions: 0');

  // A position of its own on ETHUSDT (no spec holds ETHUSDT's price; a market order fills at whatever it is)
  const api = await apiAs(user);
  const order = await api('POST', '/api/futures/orders/create', {
    symbol: 'ETHUSDT',
    side: 'BUY',
    type: 'MARKET',
    quantity: '0.05',
  });
  expect(order.body, JSON.stringify(order.body)).toMatchObject({ success: true });
  await expect.poll(() => ethPosition(keys)).toBeCloseTo(0.05, 6);

  // /kill asks first; /kill confirm flattens the account and says what it did
  expect(await tgAsk(chatId, '/kill')).toMatch(/Send \/kill confirm within 60 seconds to run it\.$/);
  const done = await tgAsk(chatId, '/kill confirm', /^Kill switch done/);
  expect(done).toBe('Kill switch done: stopped 0 bots, canceled 0 of 0 orders, closed 1 of 1 position.');
  expect(await ethPosition(keys)).toBe(0);
  expect((await api('GET', '/api/futures/positions/active')).body.data).toEqual([]);

  // The card's record of the chat's commands, newest first
  const record = card.getByRole('list', { name: 'Telegram commands' });
  await expect(record.getByRole('listitem').first()).toContainText('/kill confirm');
  await expect(record.getByRole('listitem').first()).toContainText('Kill switch done');
  await expect(record).toContainText('/status');
  await expect(record).toContainText('wallet 4,321.00');
  await expect(record.getByRole('listitem')).toHaveCount(4);
});
