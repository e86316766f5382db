import type { Clock } from '../../lib/clock';
import type { NotificationContent } from './notification-service';

/** One notice per user in this window however many calls the refused key fails (a running bot retries each bar) */
export const KEY_REFUSED_NOTICE_EVERY_MS = 60 * 60_000;

/**
 * Tells a user that Binance refused their stored key. The exchange adapter reports refusals by key; the vault
 * reports whose key it opened, so the key is matched to its owner without storing it anywhere new (memory only,
 * the API key, never the secret). A key refused while it is being saved belongs to nobody yet: the form answers it
 */
export class KeyRefusalNotices {
  private readonly owners = new Map<string, string>();
  private readonly lastTold = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly notify: (userId: string, content: NotificationContent) => Promise<void>,
  ) {}

  /** The vault opened `apiKey` for `userId` (the keys of every call the server makes for them) */
  opened(userId: string, apiKey: string): void {
    this.owners.set(apiKey, userId);
  }

  /** Binance refused `apiKey`; its owner is told at most once per window */
  refused(apiKey: string, reason: string): void {
    const userId = this.owners.get(apiKey);
    if (!userId) return;
    const now = this.clock.now().getTime();
    const last = this.lastTold.get(userId);
    if (last !== undefined && now - last < KEY_REFUSED_NOTICE_EVERY_MS) return;
    this.lastTold.set(userId, now);
    void this.notify(userId, {
      title: 'Binance refused your API key',
      message: `Binance refused the stored API key: ${reason}. Bots and pages that trade or read your account fail until you replace the key in Settings.`,
      data: { reason },
    });
  }
}
