import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { signIn, signUp } from '../support/auth';

test.describe('notifications (settings, account remote)', () => {
  test('a webhook to a local receiver gets a signed test delivery that checks out with the secret shown once', async ({
    page,
  }) => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('received');
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kestrel`;
    try {
      await signUp(page);
      await page.goto('/settings');
      const card = page.getByRole('region', { name: 'Notifications' });
      await expect(card.getByText('No webhooks yet.')).toBeVisible();

      const form = card.getByRole('form', { name: 'Add a webhook' });
      // Checked before sending: a non-http URL names the rule
      await form.getByLabel('Webhook URL').fill('ftp://example.com');
      await form.getByRole('button', { name: 'Add webhook' }).click();
      await expect(form).toContainText('URL must be an http:// or https:// address');

      await form.getByLabel('Webhook URL').fill(url);
      await form.getByLabel('Bot stopped by risk').check();
      await form.getByRole('button', { name: 'Add webhook' }).click();
      const secret = ((await card.getByTestId('webhook-secret').textContent()) ?? '').trim();
      expect(secret).toMatch(/^whsec_/);

      const row = card.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').filter({ hasText: url });
      await expect(row).toContainText('Kill switch, Bot stopped by risk');
      await row.getByRole('button', { name: 'Send test' }).click();
      await expect(row.getByText('Delivered 200')).toBeVisible();

      expect(received).toHaveLength(1);
      const [got] = received;
      if (!got) throw new Error('nothing received');
      const ts = String(got.headers['x-kestrel-timestamp']);
      const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${got.body}`).digest('hex')}`;
      expect(got.headers['x-kestrel-signature']).toBe(expected);
      expect(got.headers['x-kestrel-event']).toBe('test');
      expect(JSON.parse(got.body)).toMatchObject({ event: 'test', id: got.headers['x-kestrel-delivery'] });

      // Shown once: after leaving the secret is gone from the page
      await card.getByRole('button', { name: 'I have stored it' }).click();
      await page.reload();
      await expect(row).toBeVisible();
      await expect(card.getByTestId('webhook-secret')).toHaveCount(0);
      await row.getByRole('button', { name: 'Delivery log' }).click();
      await expect(row.getByRole('list', { name: 'Delivery log' })).toContainText('Test');
    } finally {
      await new Promise((done) => receiver.close(done));
    }
  });

  test('a sign-in from a new device appears on /account at once, pushed over the socket', async ({
    page,
    browser,
  }) => {
    const user = await signUp(page);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Notifications' });
    await expect(section.getByText(/^Nothing yet/)).toBeVisible();

    const phone = await browser.newContext({
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/604.1',
    });
    const other = await phone.newPage();
    await other.goto('/');
    await signIn(other, user);
    await expect(other).toHaveURL(/\/dashboard$/);

    // No reload: the push makes the page refetch its list
    const list = section.getByRole('list', { name: 'Notifications' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('Sign-in from a new device');
    await expect(list).toContainText('iPhone');
    await expect(section.getByText('1 unread')).toBeVisible();
    await section.getByRole('button', { name: 'Mark all read' }).click();
    await expect(section.getByText('All read')).toBeVisible();
    await phone.close();
  });

  test('the bell counts new notices live on any page, lists them grouped, and marks them read', async ({
    page,
    browser,
  }) => {
    const user = await signUp(page);
    await page.goto('/dashboard');
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await expect(bell).toHaveAccessibleName('Notifications');
    await bell.click();
    // The bell's own panel, in the top bar: /account has a Notifications region of its own
    const panel = page.getByTestId('top-bar').getByRole('region', { name: /^Notifications/ });
    await expect(panel).toContainText('Nothing yet.');
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(bell).toBeFocused();

    // Two sign-ins from two new devices: two notices, pushed to this page, which counts them without a reload
    for (const userAgent of [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/604.1',
      'Mozilla/5.0 (Linux; Android 15; Pixel 9) Chrome/140.0 Mobile Safari/537.36',
    ]) {
      const device = await browser.newContext({ userAgent });
      const other = await device.newPage();
      await other.goto('/');
      await signIn(other, user);
      await expect(other).toHaveURL(/\/dashboard$/);
      await device.close();
    }
    await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
    await expect(page.getByTestId('unread-badge')).toHaveText('2');

    // Within a minute, one kind and title: one line for both
    await bell.click();
    await expect(panel.getByRole('heading', { name: 'Notifications · 2 unread' })).toBeVisible();
    const lines = panel.getByRole('list', { name: 'Newest notifications' }).getByRole('listitem');
    await expect(lines).toHaveCount(1);
    await expect(lines.first()).toContainText('2 × Sign-in from a new device');
    await expectAccessible(page, '[data-testid="top-bar"]');
    // The risk filter has none of them
    await panel.getByRole('button', { name: 'Risk', exact: true }).click();
    await expect(panel).toContainText('No risk notifications.');
    await panel.getByRole('button', { name: 'All', exact: true }).click();
    await lines.first().getByRole('button', { name: 'Mark read: Sign-in from a new device' }).click();
    await expect(bell).toHaveAccessibleName('Notifications');
    await expect(page.getByTestId('unread-badge')).toHaveCount(0);

    // The account page agrees: everything read
    await panel.getByRole('link', { name: 'All notifications and webhooks' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(panel).toBeHidden();
    await expect(page.getByRole('region', { name: 'Notifications' }).getByText('All read')).toBeVisible();
  });
});
