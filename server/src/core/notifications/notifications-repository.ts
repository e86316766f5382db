import type { Queryable } from '../../lib/database/database';

export interface WebhookRow {
  id: string;
  user_id: string;
  url: string;
  events: string[];
  master_key_id: string;
  wrapped_data_key: Buffer;
  ciphertext: Buffer;
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
  created_at: Date;
}

export interface NotificationRow {
  id: string;
  user_id: string;
  event: string;
  title: string;
  message: string;
  read_at: Date | null;
  created_at: Date;
}

/** What one attempt left: the next state of its delivery */
export interface AttemptOutcome {
  status: DeliveryRow['status'];
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

type Row<T> = T & Record<string, unknown>;
const toWebhook = (r: WebhookRow): WebhookRow => ({
  ...r,
  wrapped_data_key: Buffer.from(r.wrapped_data_key),
  ciphertext: Buffer.from(r.ciphertext),
});
const DELIVERY_COLUMNS = `id, webhook_id, event, body, status, attempts, next_attempt_at, last_attempt_at,
  status_code, duration_ms, error, response_excerpt, created_at`;

/** Thin SQL for webhooks, their deliveries and the in-app list; rows of a user are always addressed by their owner */
export const notificationsRepository = {
  async insertWebhook(db: Queryable, w: WebhookRow): Promise<void> {
    await db.query(
      `INSERT INTO webhooks (id, user_id, url, events, master_key_id, wrapped_data_key, ciphertext, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [w.id, w.user_id, w.url, w.events, w.master_key_id, w.wrapped_data_key, w.ciphertext, w.created_at],
    );
  },

  async countWebhooks(db: Queryable, userId: string): Promise<number> {
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE user_id = $1', [
      userId,
    ]);
    return rows[0]?.n ?? 0;
  },

  async listWebhooks(db: Queryable, userId: string): Promise<WebhookRow[]> {
    const rows = await db.query<Row<WebhookRow>>(
      'SELECT * FROM webhooks WHERE user_id = $1 ORDER BY created_at, id',
      [userId],
    );
    return rows.map(toWebhook);
  },

  async findWebhook(db: Queryable, userId: string, id: string): Promise<WebhookRow | undefined> {
    const rows = await db.query<Row<WebhookRow>>('SELECT * FROM webhooks WHERE user_id = $1 AND id = $2', [
      userId,
      id,
    ]);
    return rows[0] && toWebhook(rows[0]);
  },

  async findWebhookById(db: Queryable, id: string): Promise<WebhookRow | undefined> {
    const rows = await db.query<Row<WebhookRow>>('SELECT * FROM webhooks WHERE id = $1', [id]);
    return rows[0] && toWebhook(rows[0]);
  },

  /** The user's webhooks subscribed to `event` */
  async webhooksFor(db: Queryable, userId: string, event: string): Promise<WebhookRow[]> {
    const rows = await db.query<Row<WebhookRow>>(
      'SELECT * FROM webhooks WHERE user_id = $1 AND $2 = ANY(events) ORDER BY created_at, id',
      [userId, event],
    );
    return rows.map(toWebhook);
  },

  async deleteWebhook(db: Queryable, userId: string, id: string): Promise<boolean> {
    const rows = await db.query('DELETE FROM webhooks WHERE user_id = $1 AND id = $2 RETURNING id', [
      userId,
      id,
    ]);
    return rows.length > 0;
  },

  async lockAllWebhooks(db: Queryable): Promise<WebhookRow[]> {
    const rows = await db.query<Row<WebhookRow>>('SELECT * FROM webhooks ORDER BY id FOR UPDATE');
    return rows.map(toWebhook);
  },

  async updateWrapping(
    db: Queryable,
    id: string,
    masterKeyId: string,
    wrappedDataKey: Buffer,
  ): Promise<void> {
    await db.query('UPDATE webhooks SET master_key_id = $2, wrapped_data_key = $3 WHERE id = $1', [
      id,
      masterKeyId,
      wrappedDataKey,
    ]);
  },

  async insertDelivery(
    db: Queryable,
    d: Pick<DeliveryRow, 'id' | 'webhook_id' | 'event' | 'body' | 'next_attempt_at' | 'created_at'>,
  ): Promise<void> {
    await db.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event, body, status, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6)`,
      [d.id, d.webhook_id, d.event, d.body, d.next_attempt_at, d.created_at],
    );
  },

  /**
   * Claims up to `limit` due deliveries: their next_attempt_at moves to `leaseUntil`, so another instance (or the
   * next tick) leaves them alone while this one sends; a crash mid-send means a retry once the lease ends
   */
  /**
   * Claims due deliveries (pushing `next_attempt_at` out to `leaseUntil`, so no other instance tries them
   * meanwhile): at most `limit` in all and `perUser` of each user, none of `skipUsers` (their deliveries in flight
   * here), oldest first. Two instances picking the same row: the second's update finds it no longer due
   */
  async claimDue(
    db: Queryable,
    now: Date,
    leaseUntil: Date,
    limits: { limit: number; perUser: number; skipUsers: readonly string[] },
  ): Promise<(DeliveryRow & { user_id: string })[]> {
    return db.query<Row<DeliveryRow & { user_id: string }>>(
      `UPDATE webhook_deliveries d SET next_attempt_at = $2
       FROM (
         SELECT id, user_id FROM (
           SELECT d.id, w.user_id, d.next_attempt_at,
             row_number() OVER (PARTITION BY w.user_id ORDER BY d.next_attempt_at, d.id) AS n
           FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND NOT (w.user_id = ANY($5::uuid[]))
         ) ranked
         WHERE n <= $4 ORDER BY next_attempt_at LIMIT $3
       ) pick
       WHERE d.id = pick.id AND d.status = 'pending' AND d.next_attempt_at <= $1
       RETURNING ${DELIVERY_COLUMNS.replace(/(\w+)/g, 'd.$1')}, pick.user_id`,
      [now, leaseUntil, limits.limit, limits.perUser, limits.skipUsers],
    );
  },

  /** Test deliveries of the webhook created since `since` (the test-send limit) */
  async countTestsSince(db: Queryable, webhookId: string, since: Date): Promise<number> {
    const rows = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND event = 'test' AND created_at > $2`,
      [webhookId, since],
    );
    return rows[0]?.n ?? 0;
  },

  async recordAttempt(db: Queryable, id: string, o: AttemptOutcome): Promise<void> {
    await db.query(
      `UPDATE webhook_deliveries SET status = $2, attempts = $3, next_attempt_at = $4, last_attempt_at = $5,
         status_code = $6, duration_ms = $7, error = $8, response_excerpt = $9
       WHERE id = $1`,
      [
        id,
        o.status,
        o.attempts,
        o.next_attempt_at,
        o.last_attempt_at,
        o.status_code,
        o.duration_ms,
        o.error,
        o.response_excerpt,
      ],
    );
  },

  async findDelivery(db: Queryable, id: string): Promise<DeliveryRow | undefined> {
    const rows = await db.query<Row<DeliveryRow>>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1`,
      [id],
    );
    return rows[0];
  },

  async listDeliveries(db: Queryable, webhookId: string, limit: number): Promise<DeliveryRow[]> {
    return db.query<Row<DeliveryRow>>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq DESC LIMIT $2`,
      [webhookId, limit],
    );
  },

  /** The newest delivery of each of the user's webhooks */
  async lastDeliveries(db: Queryable, userId: string): Promise<DeliveryRow[]> {
    return db.query<Row<DeliveryRow>>(
      `SELECT DISTINCT ON (d.webhook_id) ${DELIVERY_COLUMNS.replace(/(\w+)/g, 'd.$1')}
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE w.user_id = $1 ORDER BY d.webhook_id, d.seq DESC`,
      [userId],
    );
  },

  async insertNotification(db: Queryable, n: Omit<NotificationRow, 'read_at'>): Promise<void> {
    await db.query(
      `INSERT INTO notifications (id, user_id, event, title, message, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [n.id, n.user_id, n.event, n.title, n.message, n.created_at],
    );
  },

  async listNotifications(db: Queryable, userId: string, limit: number): Promise<NotificationRow[]> {
    return db.query<Row<NotificationRow>>(
      `SELECT id, user_id, event, title, message, read_at, created_at FROM notifications
       WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`,
      [userId, limit],
    );
  },

  async countUnread(db: Queryable, userId: string): Promise<number> {
    const rows = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL',
      [userId],
    );
    return rows[0]?.n ?? 0;
  },

  /** Marks one (or, without `id`, every) unread notification of the user read; returns how many changed */
  async markRead(db: Queryable, userId: string, at: Date, id?: string): Promise<number> {
    const rows = await db.query(
      `UPDATE notifications SET read_at = $2
       WHERE user_id = $1 AND read_at IS NULL ${id ? 'AND id = $3' : ''} RETURNING id`,
      id ? [userId, at, id] : [userId, at],
    );
    return rows.length;
  },

  async notificationExists(db: Queryable, userId: string, id: string): Promise<boolean> {
    const rows = await db.query('SELECT 1 FROM notifications WHERE user_id = $1 AND id = $2', [userId, id]);
    return rows.length > 0;
  },
};
export type NotificationsRepository = typeof notificationsRepository;
