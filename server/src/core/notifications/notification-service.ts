import { randomBytes, randomUUID } from 'node:crypto';
import {
  type CreatedWebhook,
  type CreateWebhookRequest,
  NOTIFICATION_EVENT_LABELS,
  type NotificationEvent,
  NotificationEventSchema,
  type NotificationList,
  WEBHOOKS_PER_USER_MAX,
  type Webhook,
  type WebhookDelivery,
  WebhookEventSchema,
  type WebhookPayload,
} from '@kestrel/contracts/account';
import type { Clock } from '../../lib/clock';
import { open, rewrap, seal } from '../../lib/crypto/envelope';
import type { Keyring, MasterKey } from '../../lib/crypto/master-key';
import type { Database, Queryable } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { DeliveryRow, NotificationsRepository, WebhookRow } from './notifications-repository';
import { type SendRequest, type SendResult, sendWebhook } from './webhook-sender';
import { type Resolver, resolveWebhookTarget, systemResolver, type TargetPolicy } from './webhook-target';

/**
 * Waits between tries: 5 tries over about 10 minutes (now, +30 s, +1.5 min, +3 min, +5 min). The schedule is the
 * delivery row's next_attempt_at, so a restarted server carries on where the last one stopped
 */
export const RETRY_DELAYS_MS = [30_000, 90_000, 180_000, 300_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A claimed delivery is left alone this long (longer than one send can take) before another try may take it */
const CLAIM_LEASE_MS = 60_000;
/** Deliveries in flight at once on this instance, and of one user: one user's slow endpoint never holds another's */
const IN_FLIGHT_MAX = 16;
const IN_FLIGHT_PER_USER = 2;
/** "Send test" of one webhook in a minute (each is a real POST to the owner's endpoint) */
export const TEST_SENDS_PER_MINUTE = 5;

/** Authenticated data of a sealed signing secret: the bytes cannot be moved to another user or webhook */
const secretContext = (userId: string, webhookId: string) => `webhook-secret|${userId}|${webhookId}`;

/** What an event says: the in-app list shows title and message, the webhook body carries `data` too */
export interface NotificationContent {
  title: string;
  message: string;
  data?: Record<string, unknown>;
}

/** What the owner's sockets hear of a new notification (the list is read over HTTP) */
export type NotificationNotice = {
  notificationId: string;
  event: NotificationEvent;
  title: string;
  time: number;
};

/** The pushes the service sends to the owner's sockets (the plugin publishes 'notification.created') */
export type NotificationPush = (userId: string, notice: NotificationNotice) => Promise<void>;

declare module '../../lib/domain-events' {
  interface DomainEventMap {
    /**
     * A notification was stored for the user (published by the notifications plugin's push, after the entry and
     * its webhook deliveries are written): the socket plugin pushes it to the user's sockets. News: a failed push
     * is logged; the entry is in the list either way
     */
    'notification.created': { userId: string; notice: NotificationNotice };
  }
}

/**
 * Another way a notice reaches its user (Telegram): told after the in-app entry and the webhooks, for every event;
 * the channel decides whether the user chose it. It must not throw nor wait on the outside world
 */
export interface NotificationChannel {
  deliver(userId: string, event: NotificationEvent, content: NotificationContent): Promise<void>;
}

export interface NotificationServiceOptions {
  /**
   * Which private addresses webhooks may reach: all (KESTREL_WEBHOOKS_ALLOW_PRIVATE: tests, a lab) or the operator's
   * named hosts and ranges (KESTREL_WEBHOOKS_ALLOW_HOSTS: a LAN automation)
   */
  targets: TargetPolicy;
  resolve?: Resolver;
  send?: (req: SendRequest) => Promise<SendResult>;
  /** Channels beside the in-app list and the webhooks (the Telegram chat) */
  channels?: readonly NotificationChannel[];
  /** Where a failure of the background work goes (the app's log) */
  onError?: (err: unknown, what: string) => void;
}

/**
 * Webhooks (secrets sealed by the vault), their deliveries (signed POSTs retried on a schedule stored in the
 * database) and the in-app list. `notify` is the one entry every emitter calls
 */
export class NotificationService {
  private readonly resolve: Resolver;
  private readonly send: (req: SendRequest) => Promise<SendResult>;
  private running: Promise<void> | null = null;
  private again = false;
  /** Wakes a delivery round that waits for slow deliveries: a new one is due */
  private poke: (() => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly repo: NotificationsRepository,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
    private readonly push: NotificationPush,
    private readonly options: NotificationServiceOptions,
  ) {
    this.resolve = options.resolve ?? systemResolver;
    this.send = options.send ?? sendWebhook;
  }

  /**
   * Tells the user: an entry in the in-app list (pushed to their sockets) and a delivery to each webhook that chose
   * the event. Never throws: the action that emitted it (a kill switch, a sign-in) has happened either way
   */
  async notify(userId: string, event: NotificationEvent, content: NotificationContent): Promise<void> {
    try {
      const now = this.clock.now();
      const id = randomUUID();
      await this.repo.insertNotification(this.db, {
        id,
        user_id: userId,
        event,
        title: content.title,
        message: content.message,
        created_at: now,
      });
      const hooks = await this.repo.webhooksFor(this.db, userId, event);
      for (const hook of hooks) await this.enqueue(hook, event, content, now);
      await this.push(userId, { notificationId: id, event, title: content.title, time: now.getTime() }).catch(
        (err: unknown) => this.options.onError?.(err, 'notification push'),
      );
      if (hooks.length > 0) this.kick();
      for (const channel of this.options.channels ?? [])
        await channel
          .deliver(userId, event, content)
          .catch((err: unknown) => this.options.onError?.(err, `notification ${event} channel`));
    } catch (err) {
      this.options.onError?.(err, `notification ${event}`);
    }
  }

  async list(userId: string, limit: number): Promise<NotificationList> {
    const [rows, unread] = await Promise.all([
      this.repo.listNotifications(this.db, userId, limit),
      this.repo.countUnread(this.db, userId),
    ]);
    return {
      items: rows.map((r) => ({
        id: r.id,
        event: NotificationEventSchema.parse(r.event),
        title: r.title,
        message: r.message,
        read: r.read_at !== null,
        createdAt: r.created_at.getTime(),
      })),
      unread,
    };
  }

  async markRead(userId: string, id: string | undefined): Promise<void> {
    if (id && !(await this.repo.notificationExists(this.db, userId, id)))
      throw new HttpError(404, 'NOTIFICATION_NOT_FOUND', 'No such notification');
    await this.repo.markRead(this.db, userId, this.clock.now(), id);
  }

  /** Checks the URL (SSRF), generates the secret and stores it sealed; the answer is the only time it is shown */
  async createWebhook(userId: string, body: CreateWebhookRequest): Promise<CreatedWebhook> {
    if ((await this.repo.countWebhooks(this.db, userId)) >= WEBHOOKS_PER_USER_MAX)
      throw new HttpError(400, 'TOO_MANY_WEBHOOKS', `At most ${WEBHOOKS_PER_USER_MAX} webhooks per account`);
    await resolveWebhookTarget(body.url, this.options.targets, this.resolve);
    const id = randomUUID();
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const sealed = seal(this.keyring, Buffer.from(secret, 'utf8'), secretContext(userId, id));
    const now = this.clock.now();
    await this.repo.insertWebhook(this.db, {
      id,
      user_id: userId,
      url: body.url,
      events: body.events,
      master_key_id: sealed.masterKeyId,
      wrapped_data_key: sealed.wrappedDataKey,
      ciphertext: sealed.ciphertext,
      created_at: now,
    });
    return { id, url: body.url, events: body.events, createdAt: now.getTime(), lastDelivery: null, secret };
  }

  async listWebhooks(userId: string): Promise<Webhook[]> {
    const [hooks, last] = await Promise.all([
      this.repo.listWebhooks(this.db, userId),
      this.repo.lastDeliveries(this.db, userId),
    ]);
    const lastOf = new Map(last.map((d) => [d.webhook_id, toDelivery(d)]));
    return hooks.map((h) => ({ ...toWebhook(h), lastDelivery: lastOf.get(h.id) ?? null }));
  }

  async deleteWebhook(userId: string, id: string): Promise<void> {
    if (!(await this.repo.deleteWebhook(this.db, userId, id))) throw notFound();
  }

  async deliveries(userId: string, id: string, limit: number): Promise<WebhookDelivery[]> {
    if (!(await this.repo.findWebhook(this.db, userId, id))) throw notFound();
    return (await this.repo.listDeliveries(this.db, id, limit)).map(toDelivery);
  }

  /** "Send test": one `test` delivery to this webhook, tried at once; answers with its first attempt's outcome */
  async sendTest(userId: string, id: string): Promise<WebhookDelivery> {
    const hook = await this.repo.findWebhook(this.db, userId, id);
    if (!hook) throw notFound();
    const now = this.clock.now();
    if (
      (await this.repo.countTestsSince(this.db, hook.id, new Date(now.getTime() - 60_000))) >=
      TEST_SENDS_PER_MINUTE
    )
      throw new HttpError(
        429,
        'TOO_MANY_TESTS',
        `At most ${TEST_SENDS_PER_MINUTE} test sends a minute per webhook: try again in a minute`,
        { 'retry-after': '60' },
      );
    const deliveryId = await this.enqueue(
      hook,
      'test',
      { title: 'Test delivery', message: 'A test from Kestrel: this webhook works.', data: {} },
      this.clock.now(),
    );
    await this.tick();
    const row = await this.repo.findDelivery(this.db, deliveryId);
    if (!row) throw notFound();
    return toDelivery(row);
  }

  /**
   * Sends every due delivery (those claimed by this call). Run by the timer, after `notify`, and by tests after
   * moving the clock. Calls overlapping a running one make it go round once more instead of running twice
   */
  tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      // A round waiting on slow deliveries claims the new ones now, not when one of those ends
      this.poke?.();
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.sendDue();
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Waits for deliveries in flight (server shutdown) */
  async idle(): Promise<void> {
    await this.running?.catch(() => {});
  }

  /** Re-wraps every webhook secret's data key under `to` inside the caller's transaction (vault-key rotation) */
  async rotateMasterKey(tx: Queryable, to: MasterKey): Promise<number> {
    const rows = await this.repo.lockAllWebhooks(tx);
    for (const row of rows) {
      const next = rewrap(
        this.keyring,
        { masterKeyId: row.master_key_id, wrappedDataKey: row.wrapped_data_key, ciphertext: row.ciphertext },
        secretContext(row.user_id, row.id),
        to,
      );
      await this.repo.updateWrapping(tx, row.id, next.masterKeyId, next.wrappedDataKey);
    }
    return rows.length;
  }

  private kick(): void {
    this.tick().catch((err: unknown) => this.options.onError?.(err, 'webhook delivery'));
  }

  private async enqueue(
    hook: WebhookRow,
    event: NotificationEvent,
    content: NotificationContent,
    now: Date,
  ): Promise<string> {
    const id = randomUUID();
    const payload: WebhookPayload = {
      id,
      event,
      createdAt: now.getTime(),
      title: content.title,
      message: content.message,
      data: content.data ?? {},
    };
    await this.repo.insertDelivery(this.db, {
      id,
      webhook_id: hook.id,
      event,
      body: JSON.stringify(payload),
      next_attempt_at: now,
      created_at: now,
    });
    return id;
  }

  /**
   * Tries every due delivery, each user's in its own lane: at most IN_FLIGHT_PER_USER of a user at once and
   * IN_FLIGHT_MAX in all, a new claim as soon as one ends, so a slow endpoint (5 s each) delays only its owner's
   */
  private async sendDue(): Promise<void> {
    const perUser = new Map<string, number>();
    const running = new Set<Promise<void>>();
    for (;;) {
      const room = IN_FLIGHT_MAX - running.size;
      const now = this.clock.now();
      const due =
        room > 0
          ? await this.repo.claimDue(this.db, now, new Date(now.getTime() + CLAIM_LEASE_MS), {
              limit: room,
              perUser: IN_FLIGHT_PER_USER,
              // A user with a delivery in flight gets more once it is done: never more than their share at once
              skipUsers: [...perUser.keys()],
            })
          : [];
      for (const d of due) {
        perUser.set(d.user_id, (perUser.get(d.user_id) ?? 0) + 1);
        const attempt: Promise<void> = this.attempt(d)
          .catch((err: unknown) => this.options.onError?.(err, 'webhook delivery'))
          .finally(() => {
            const left = (perUser.get(d.user_id) ?? 1) - 1;
            if (left > 0) perUser.set(d.user_id, left);
            else perUser.delete(d.user_id);
            running.delete(attempt);
          });
        running.add(attempt);
      }
      if (running.size === 0) return;
      // Nothing more to claim now (or no room): the next claim waits for one to end, or for a new delivery
      if (due.length === 0 || running.size >= IN_FLIGHT_MAX)
        await Promise.race([
          ...running,
          new Promise<void>((resolve) => {
            this.poke = resolve;
          }),
        ]);
      this.poke = undefined;
    }
  }

  private async attempt(d: DeliveryRow): Promise<void> {
    const hook = await this.repo.findWebhookById(this.db, d.webhook_id);
    if (!hook) return; // deleted meanwhile: its deliveries went with it
    const attempts = d.attempts + 1;
    const now = this.clock.now();
    let result: SendResult;
    try {
      // Checked again at every try: the name may resolve elsewhere now; the checked address is the one used
      const target = await resolveWebhookTarget(hook.url, this.options.targets, this.resolve);
      const secret = open(
        this.keyring,
        {
          masterKeyId: hook.master_key_id,
          wrappedDataKey: hook.wrapped_data_key,
          ciphertext: hook.ciphertext,
        },
        secretContext(hook.user_id, hook.id),
      ).toString('utf8');
      result = await this.send({
        target,
        body: d.body,
        secret,
        event: d.event,
        deliveryId: d.id,
        timestamp: Math.floor(now.getTime() / 1000),
        clock: this.clock,
      });
    } catch (err) {
      result = {
        statusCode: null,
        durationMs: 0,
        error:
          err instanceof HttpError ? err.message : 'Could not deliver: the webhook could not be prepared',
        responseExcerpt: null,
      };
      if (!(err instanceof HttpError)) this.options.onError?.(err, 'webhook delivery');
    }
    const delivered = result.error === null;
    const delay = RETRY_DELAYS_MS[attempts - 1];
    const retry = !delivered && delay !== undefined;
    await this.repo.recordAttempt(this.db, d.id, {
      status: delivered ? 'delivered' : retry ? 'pending' : 'failed',
      attempts,
      next_attempt_at: retry ? new Date(this.clock.now().getTime() + delay) : null,
      last_attempt_at: now,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      error: result.error,
      response_excerpt: result.responseExcerpt,
    });
  }
}

const notFound = () => new HttpError(404, 'WEBHOOK_NOT_FOUND', 'No such webhook');

function toWebhook(h: WebhookRow): Omit<Webhook, 'lastDelivery'> {
  return {
    id: h.id,
    url: h.url,
    events: h.events.map((e) => WebhookEventSchema.parse(e)),
    createdAt: h.created_at.getTime(),
  };
}

function toDelivery(d: DeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    webhookId: d.webhook_id,
    event: NotificationEventSchema.parse(d.event),
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? (d.next_attempt_at?.getTime() ?? null) : null,
    lastAttemptAt: d.last_attempt_at?.getTime() ?? null,
    statusCode: d.status_code,
    durationMs: d.duration_ms,
    error: d.error,
    responseExcerpt: d.response_excerpt,
    createdAt: d.created_at.getTime(),
  };
}

/** The words of an event for a title, e.g. "Kill switch" */
export const eventLabel = (event: NotificationEvent) => NOTIFICATION_EVENT_LABELS[event];
