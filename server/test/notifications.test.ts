import type { ServerResponse } from 'node:http';
import { ErrorResponseSchema, MeResponseSchema } from '@kestrel/contracts';
import {
  CreatedWebhookResponseSchema,
  NotificationListResponseSchema,
  WebhookDeliveriesResponseSchema,
  WebhookDeliveryResponseSchema,
  WebhookListResponseSchema,
  WebhookPayloadSchema,
} from '@kestrel/contracts/account';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import {
  MAX_ATTEMPTS,
  NotificationService,
  RETRY_DELAYS_MS,
} from '../src/core/notifications/notification-service';
import { notificationsRepository } from '../src/core/notifications/notifications-repository';
import {
  isPrivateAddress,
  parsePrivateAllowance,
  resolveWebhookTarget,
} from '../src/core/notifications/webhook-target';
import {
  bearer,
  buildTestApp,
  openTestDatabase,
  PASSWORD,
  signUp,
  type TestApp,
  type TestDatabase,
  uniqueEmail,
} from './helper';
import { acrossVaultKeyRotation } from './vault-key-rotation';
import { type Received, type Receiver, signatureChecks, startReceiver } from './webhook-receiver';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await openTestDatabase('pglite');
});
afterAll(async () => {
  await tdb?.cleanup();
});

const call = (t: TestApp, method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  t.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('SSRF guard (operator has not allowed private addresses)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(tdb.db);
  });
  afterAll(async () => {
    await t?.app.close();
  });

  it.each([
    ['http://127.0.0.1:9/hook', '127.0.0.1'],
    ['http://10.1.2.3/hook', '10.1.2.3'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://[::1]:8080/hook', '::1'],
    ['http://localhost:8080/hook', 'localhost resolves to'],
  ])('refuses %s on save, naming the address', async (url, named) => {
    const { access_token } = await signUp(t);
    const res = await call(t, 'POST', '/api/v1/notifications/webhooks', access_token, {
      url,
      events: ['kill_switch'],
    });
    expect(res.statusCode).toBe(400);
    const err = ErrorResponseSchema.parse(res.json());
    expect(err.code).toBe('WEBHOOK_URL_REFUSED');
    expect(err.detail).toContain(named);
    expect(err.detail).toMatch(/private, loopback or link-local/);
    const list = WebhookListResponseSchema.parse(
      (await call(t, 'GET', '/api/v1/notifications/webhooks', access_token)).json(),
    );
    expect(list.data).toEqual([]);
  });

  it('refuses a bad URL or no events with the field named', async () => {
    const { access_token } = await signUp(t);
    const bad = ErrorResponseSchema.parse(
      (
        await call(t, 'POST', '/api/v1/notifications/webhooks', access_token, {
          url: 'ftp://example.com/x',
          events: [],
        })
      ).json(),
    );
    expect(bad.issues?.map((i) => [i.path, i.message])).toEqual(
      expect.arrayContaining([
        ['body.url', 'URL must be an http:// or https:// address'],
        ['body.events', 'Choose at least one event'],
      ]),
    );
  });

  it('judges mapped, unique-local and public addresses', () => {
    expect(isPrivateAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isPrivateAddress('fd12::1')).toBe(true);
    expect(isPrivateAddress('fe80::1')).toBe(true);
    expect(isPrivateAddress('192.168.1.1')).toBe(true);
    expect(isPrivateAddress('93.184.215.14')).toBe(false);
    expect(isPrivateAddress('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBe(false);
    // IPv6 spellings that carry an IPv4 address: this host's or any other
    expect(isPrivateAddress('::ffff:7f00:1')).toBe(true);
    expect(isPrivateAddress('0:0:0:0:0:ffff:127.0.0.1')).toBe(true);
    expect(isPrivateAddress('::127.0.0.1')).toBe(true);
    expect(isPrivateAddress('2002:7f00:1::1')).toBe(true);
    expect(isPrivateAddress('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toBe(true);
    expect(isPrivateAddress('64:ff9b:1::a00:1')).toBe(true);
    // A public IPv4 in the mapped form is that public address
    expect(isPrivateAddress('::ffff:5db8:d70e')).toBe(false);
  });

  it('checks again at delivery and connects to the checked address (DNS rebinding)', async () => {
    const receiver = await startReceiver();
    try {
      const { access_token } = await signUp(t);
      const me = MeResponseSchema.parse((await call(t, 'GET', '/api/v1/auth/me', access_token)).json());
      // A name that resolved to a public address at save time and to loopback at delivery
      let answers = 0;
      const service = new NotificationService(
        tdb.db,
        notificationsRepository,
        t.keyring,
        t.clock,
        async () => {},
        {
          targets: { allowPrivate: false },
          resolve: async () => [{ address: answers++ === 0 ? '93.184.215.14' : '127.0.0.1', family: 4 }],
        },
      );
      const port = new URL(receiver.url).port;
      const hook = await service.createWebhook(me.user.id, {
        url: `http://rebind.example:${port}/hook`,
        events: ['kill_switch'],
      });
      const delivery = await service.sendTest(me.user.id, hook.id);
      expect(delivery.status).toBe('pending');
      expect(delivery.statusCode).toBeNull();
      expect(delivery.error).toMatch(/resolves to 127\.0\.0\.1/);
      expect(receiver.received).toHaveLength(0);
      // The pinned address is what is connected to, whatever the name resolves to later
      const target = await resolveWebhookTarget(
        'http://pinned.example/x',
        { allowPrivate: false },
        async () => [{ address: '93.184.215.14', family: 4 }],
      );
      expect(target.address.address).toBe('93.184.215.14');
    } finally {
      await receiver.close();
    }
  });
});

describe("the operator's allowed private hosts (KESTREL_WEBHOOKS_ALLOW_HOSTS)", () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    // The receiver listens on 127.0.0.1: the one loopback address allowed; every other private one stays refused
    t = await buildTestApp(tdb.db, {}, { KESTREL_WEBHOOKS_ALLOW_HOSTS: 'homeassistant.lan, 127.0.0.1' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t?.app.close();
    await receiver?.close();
  });

  it('delivers to an allowed LAN address and refuses any other private one, naming the list', async () => {
    const { access_token } = await signUp(t);
    const created = await call(t, 'POST', '/api/v1/notifications/webhooks', access_token, {
      url: receiver.url,
      events: ['kill_switch'],
    });
    expect(created.statusCode).toBe(201);
    const hook = CreatedWebhookResponseSchema.parse(created.json()).data;
    receiver.received.length = 0;
    const res = await call(t, 'POST', `/api/v1/notifications/webhooks/${hook.id}/test`, access_token);
    expect(WebhookDeliveryResponseSchema.parse(res.json()).data).toMatchObject({ status: 'delivered' });
    expect(receiver.received).toHaveLength(1);

    const port = new URL(receiver.url).port;
    const refused = await call(t, 'POST', '/api/v1/notifications/webhooks', access_token, {
      url: `http://127.0.0.2:${port}/hook`,
      events: ['kill_switch'],
    });
    expect(refused.statusCode).toBe(400);
    expect(ErrorResponseSchema.parse(refused.json()).detail).toBe(
      "URL must point to a public address: 127.0.0.2 resolves to 127.0.0.2, a private, loopback or link-local address outside the server's allowed private hosts (homeassistant.lan, 127.0.0.1)",
    );
  });

  it('allows a named host whatever private address it has, and a range by address; the rest as before', async () => {
    const allowance = parsePrivateAllowance('HomeAssistant.lan,192.168.1.0/24,fd00::/8');
    const policy = { allowPrivate: false as const, allowance };
    const at =
      (address: string, family: 4 | 6 = 4) =>
      async () => [{ address, family }];
    await expect(
      resolveWebhookTarget('http://homeassistant.lan:8123/api/webhook/x', policy, at('10.1.2.3')),
    ).resolves.toMatchObject({ address: { address: '10.1.2.3' } });
    await expect(
      resolveWebhookTarget('http://n8n.lan/hook', policy, at('192.168.1.40')),
    ).resolves.toBeTruthy();
    await expect(
      resolveWebhookTarget('http://[fd00::5]/hook', policy, at('fd00::5', 6)),
    ).resolves.toBeTruthy();
    // Outside the range, the cloud's metadata address, a name not listed: refused
    await expect(resolveWebhookTarget('http://n8n.lan/hook', policy, at('192.168.2.40'))).rejects.toThrow(
      /resolves to 192\.168\.2\.40/,
    );
    await expect(resolveWebhookTarget('http://169.254.169.254/latest', policy)).rejects.toThrow(/link-local/);
    // A name with one allowed and one other private address is refused (it could be steered to the other)
    await expect(
      resolveWebhookTarget('http://mixed.lan/x', policy, async () => [
        { address: '192.168.1.9', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]),
    ).rejects.toThrow(/resolves to 127\.0\.0\.1/);
  });

  it('refuses to start on an entry that is no host, address or range, naming it', () => {
    expect(() => loadConfig({ KESTREL_WEBHOOKS_ALLOW_HOSTS: '192.168.1.0/33' })).toThrow(
      'KESTREL_WEBHOOKS_ALLOW_HOSTS: 192.168.1.0/33 has a prefix length outside 0–32',
    );
    expect(() => loadConfig({ KESTREL_WEBHOOKS_ALLOW_HOSTS: 'nas.lan, http://x' })).toThrow(
      'KESTREL_WEBHOOKS_ALLOW_HOSTS: http://x is not a host name, an address or a CIDR range (192.168.1.0/24)',
    );
  });
});

describe('webhooks delivering to a local receiver (KESTREL_WEBHOOKS_ALLOW_PRIVATE=1)', () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await buildTestApp(tdb.db, {}, { KESTREL_WEBHOOKS_ALLOW_PRIVATE: '1' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t?.app.close();
    await receiver?.close();
  });

  const create = async (token: string, url: string, events: string[]) => {
    const res = await call(t, 'POST', '/api/v1/notifications/webhooks', token, { url, events });
    expect(res.statusCode).toBe(201);
    return CreatedWebhookResponseSchema.parse(res.json()).data;
  };

  it('signs the test delivery with the secret shown once, which no later answer or log contains', async () => {
    const { access_token } = await signUp(t);
    const hook = await create(access_token, receiver.url, ['kill_switch', 'bot_started']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    receiver.received.length = 0;

    const res = await call(t, 'POST', `/api/v1/notifications/webhooks/${hook.id}/test`, access_token);
    const delivery = WebhookDeliveryResponseSchema.parse(res.json()).data;
    expect(delivery).toMatchObject({
      status: 'delivered',
      statusCode: 200,
      attempts: 1,
      responseExcerpt: 'ok',
    });

    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0] as Received;
    expect(signatureChecks(hook.secret, got)).toBe(true);
    expect(signatureChecks(`${hook.secret}x`, got)).toBe(false);
    expect(got.headers['x-kestrel-event']).toBe('test');
    expect(got.headers['x-kestrel-delivery']).toBe(delivery.id);
    expect(Number(got.headers['x-kestrel-timestamp'])).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(WebhookPayloadSchema.parse(JSON.parse(got.body))).toMatchObject({
      id: delivery.id,
      event: 'test',
    });

    const list = WebhookListResponseSchema.parse(
      (await call(t, 'GET', '/api/v1/notifications/webhooks', access_token)).json(),
    ).data;
    expect(list).toEqual([
      expect.objectContaining({
        id: hook.id,
        lastDelivery: expect.objectContaining({ status: 'delivered' }),
      }),
    ]);
    const shown = t.responses.findIndex((r) => r.body.includes(hook.secret));
    const after = t.responses.slice(shown + 1);
    expect(after.length).toBeGreaterThan(1);
    for (const r of after) expect(r.body).not.toContain(hook.secret);
    expect(t.logs.join('\n')).not.toContain(hook.secret);
  });

  it('delivers per user: one user’s slow endpoint never holds another’s delivery, and test sends are limited', async () => {
    const slow = await startReceiver();
    const fast = await startReceiver();
    const held: ServerResponse[] = [];
    slow.answer = (res) => held.push(res);
    try {
      const a = await signUp(t);
      const b = await signUp(t);
      await create(a.access_token, slow.url, ['kill_switch']);
      await create(b.access_token, fast.url, ['kill_switch']);
      const content = { title: 'Kill switch', message: 'Flattened' };
      for (let i = 0; i < 10; i++) await t.app.notifications.notify(a.user.id, 'kill_switch', content);
      // The slow endpoint holds its first deliveries (each could wait its 5 s timeout); the other user's goes now
      for (let i = 0; i < 200 && held.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(held.length).toBeGreaterThan(0);
      await t.app.notifications.notify(b.user.id, 'kill_switch', content);
      for (let i = 0; i < 200 && fast.received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(fast.received).toHaveLength(1);
      // Never more than its share of the slow user's in flight at once
      expect(held.length).toBeLessThanOrEqual(2);
      for (const res of held.splice(0)) res.writeHead(200).end('ok');
      slow.answer = (res) => res.writeHead(200).end('ok');
      await t.app.notifications.tick();
      expect(slow.received).toHaveLength(10);

      // "Send test" is a real POST to the owner's endpoint: five a minute per webhook
      const [hook] = WebhookListResponseSchema.parse(
        (await call(t, 'GET', '/api/v1/notifications/webhooks', b.access_token)).json(),
      ).data;
      for (let i = 0; i < 5; i++)
        expect(
          (await call(t, 'POST', `/api/v1/notifications/webhooks/${hook?.id}/test`, b.access_token))
            .statusCode,
        ).toBe(200);
      const sixth = await call(t, 'POST', `/api/v1/notifications/webhooks/${hook?.id}/test`, b.access_token);
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json().code).toBe('TOO_MANY_TESTS');
      t.clock.advance(61_000);
      expect(
        (await call(t, 'POST', `/api/v1/notifications/webhooks/${hook?.id}/test`, b.access_token)).statusCode,
      ).toBe(200);
    } finally {
      for (const res of held) res.writeHead(200).end('ok');
      await slow.close();
      await fast.close();
    }
  });

  it('retries on the stored schedule until the receiver accepts, keeping one signed body', async () => {
    const { access_token } = await signUp(t);
    const hook = await create(access_token, receiver.url, ['kill_switch']);
    receiver.received.length = 0;
    let failures = 2;
    receiver.answer = (res) => {
      if (failures-- > 0) {
        res.writeHead(500);
        res.end('try later');
      } else {
        res.writeHead(204);
        res.end();
      }
    };
    try {
      const first = WebhookDeliveryResponseSchema.parse(
        (await call(t, 'POST', `/api/v1/notifications/webhooks/${hook.id}/test`, access_token)).json(),
      ).data;
      expect(first).toMatchObject({ status: 'pending', statusCode: 500, attempts: 1, error: 'Answered 500' });
      expect(first.nextAttemptAt).toBe(t.clock.now().getTime() + RETRY_DELAYS_MS[0]);

      // Not due yet: nothing is sent
      t.clock.advance(RETRY_DELAYS_MS[0] - 1);
      await t.app.notifications.tick();
      expect(receiver.received).toHaveLength(1);
      t.clock.advance(1);
      await t.app.notifications.tick();
      expect(receiver.received).toHaveLength(2);
      t.clock.advance(RETRY_DELAYS_MS[1]);
      await t.app.notifications.tick();
      expect(receiver.received).toHaveLength(3);

      const log = WebhookDeliveriesResponseSchema.parse(
        (await call(t, 'GET', `/api/v1/notifications/webhooks/${hook.id}/deliveries`, access_token)).json(),
      ).data;
      expect(log[0]).toMatchObject({ id: first.id, status: 'delivered', statusCode: 204, attempts: 3 });
      // Every try carries the same delivery id and body, each signed correctly
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
      expect(receiver.received.every((r) => r.headers['x-kestrel-delivery'] === first.id)).toBe(true);
      expect(receiver.received.every((r) => signatureChecks(hook.secret, r))).toBe(true);
    } finally {
      receiver.answer = (res) => {
        res.writeHead(200);
        res.end('ok');
      };
    }
  });

  it(`gives up after ${MAX_ATTEMPTS} tries over about 10 minutes`, async () => {
    const { access_token } = await signUp(t);
    const hook = await create(access_token, receiver.url, ['kill_switch']);
    receiver.answer = (res) => {
      res.writeHead(503);
      res.end();
    };
    try {
      receiver.received.length = 0;
      await call(t, 'POST', `/api/v1/notifications/webhooks/${hook.id}/test`, access_token);
      for (const delay of RETRY_DELAYS_MS) {
        t.clock.advance(delay);
        await t.app.notifications.tick();
      }
      t.clock.advance(60_000);
      await t.app.notifications.tick();
      expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
      expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBe(10 * 60_000);
      const [last] = WebhookDeliveriesResponseSchema.parse(
        (await call(t, 'GET', `/api/v1/notifications/webhooks/${hook.id}/deliveries`, access_token)).json(),
      ).data;
      expect(last).toMatchObject({
        status: 'failed',
        attempts: MAX_ATTEMPTS,
        statusCode: 503,
        nextAttemptAt: null,
      });
    } finally {
      receiver.answer = (res) => {
        res.writeHead(200);
        res.end('ok');
      };
    }
  });

  it('does not follow a redirect', async () => {
    const elsewhere = await startReceiver();
    try {
      const { access_token } = await signUp(t);
      const hook = await create(access_token, receiver.url, ['kill_switch']);
      receiver.answer = (res) => {
        res.writeHead(302, { location: elsewhere.url });
        res.end();
      };
      const d = WebhookDeliveryResponseSchema.parse(
        (await call(t, 'POST', `/api/v1/notifications/webhooks/${hook.id}/test`, access_token)).json(),
      ).data;
      expect(d).toMatchObject({ statusCode: 302, status: 'pending' });
      expect(d.error).toMatch(/redirect, which is not followed/);
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      receiver.answer = (res) => {
        res.writeHead(200);
        res.end('ok');
      };
      await elsewhere.close();
    }
  });

  it('tells of a sign-in from a new device in the list and to webhooks that chose it, once per device', async () => {
    const email = uniqueEmail('notif');
    const { access_token } = await signUp(t, email);
    const hook = await create(access_token, receiver.url, ['new_device_signin']);
    receiver.received.length = 0;
    const signin = (ua: string) =>
      t.request({
        method: 'POST',
        url: '/api/v1/auth/signin',
        payload: { email, password: PASSWORD },
        headers: { 'user-agent': ua },
      });
    await signin('Mozilla/5.0 (iPhone) Safari/18');
    await signin('Mozilla/5.0 (iPhone) Safari/18');
    await t.app.notifications.idle();
    const list = NotificationListResponseSchema.parse(
      (await call(t, 'GET', '/api/v1/notifications', access_token)).json(),
    ).data;
    expect(list.items.map((n) => n.event)).toEqual(['new_device_signin']);
    expect(list.items[0]?.message).toContain('Mozilla/5.0 (iPhone) Safari/18');
    expect(list.unread).toBe(1);
    expect(receiver.received.map((r) => r.headers['x-kestrel-event'])).toEqual(['new_device_signin']);
    expect(signatureChecks(hook.secret, receiver.received[0] as Received)).toBe(true);

    await call(t, 'POST', `/api/v1/notifications/${list.items[0]?.id}/read`, access_token);
    const after = NotificationListResponseSchema.parse(
      (await call(t, 'GET', '/api/v1/notifications', access_token)).json(),
    ).data;
    expect(after.unread).toBe(0);
    expect(after.items[0]?.read).toBe(true);
  });

  it("keeps users apart: another user's webhook is a 404", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const hook = await create(a.access_token, receiver.url, ['kill_switch']);
    expect(
      (await call(t, 'POST', `/api/v1/notifications/webhooks/${hook.id}/test`, b.access_token)).statusCode,
    ).toBe(404);
    expect(
      (await call(t, 'DELETE', `/api/v1/notifications/webhooks/${hook.id}`, b.access_token)).statusCode,
    ).toBe(404);
    expect(
      (await call(t, 'DELETE', `/api/v1/notifications/webhooks/${hook.id}`, a.access_token)).statusCode,
    ).toBe(200);
  });
});

describe('vault-key rotation', () => {
  it('re-wraps webhook secrets with the exchange keys: after rotation the same secret still signs', async () => {
    const receiver = await startReceiver();
    try {
      await acrossVaultKeyRotation(
        { KESTREL_WEBHOOKS_ALLOW_PRIVATE: '1' },
        async (before) => {
          const { access_token } = await signUp(before);
          const res = await call(before, 'POST', '/api/v1/notifications/webhooks', access_token, {
            url: receiver.url,
            events: ['kill_switch'],
          });
          return { access_token, hook: CreatedWebhookResponseSchema.parse(res.json()).data };
        },
        async (after, { access_token, hook }, { db, newKey }) => {
          const rows = await db.query<{ master_key_id: string }>('SELECT master_key_id FROM webhooks');
          expect(rows.map((r) => r.master_key_id)).toEqual([newKey.id]);
          // Only the new key configured: the secret opens and signs as before
          const d = WebhookDeliveryResponseSchema.parse(
            (
              await call(after, 'POST', `/api/v1/notifications/webhooks/${hook.id}/test`, access_token)
            ).json(),
          ).data;
          expect(d.status).toBe('delivered');
          expect(signatureChecks(hook.secret, receiver.received.at(-1) as Received)).toBe(true);
        },
      );
    } finally {
      await receiver.close();
    }
  });
});
