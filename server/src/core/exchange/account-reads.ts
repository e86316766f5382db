/** How long a user's account figures are served again (the pages refetch them on every fill) */
export const ACCOUNT_READS_TTL_MS = 3_000;
const DAY_MS = 86_400_000;

interface Entry {
  generation: number;
  /** Monotonic time of the load */
  loadedAt: number;
  /** The app clock when loaded: figures of "today" (a UTC day) must not outlive a jump of the clock or midnight */
  clockAt: number;
  value: Promise<unknown>;
}

/**
 * The expensive account reads of the dashboard and risk pages (open orders of every symbol: 80 weight, today's
 * income: 30), kept per user for a few seconds and shared by concurrent loads, so a burst of fills that makes a
 * page refetch costs one load. Anything that changes the account forgets them at once (`changed`: the user's own
 * order calls, the kill switch, the account stream's order and balance pushes), so a refetch after a fill or an
 * order never gets the figures from before it.
 */
export class AccountReads {
  readonly #entries = new Map<string, Entry>();
  readonly #generation = new Map<string, number>();

  constructor(
    private readonly ttlMs = ACCOUNT_READS_TTL_MS,
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {}

  /** `load()`'s answer for (`name`, `userId`), or the one loaded less than the TTL ago (by both clocks) */
  read<T>(name: string, userId: string, clockNow: number, load: () => Promise<T>): Promise<T> {
    const key = `${name}\u0000${userId}`;
    const generation = this.#generation.get(userId) ?? 0;
    const now = this.monotonicNow();
    const hit = this.#entries.get(key);
    if (
      hit &&
      hit.generation === generation &&
      now - hit.loadedAt < this.ttlMs &&
      clockNow >= hit.clockAt &&
      clockNow - hit.clockAt < this.ttlMs &&
      Math.floor(clockNow / DAY_MS) === Math.floor(hit.clockAt / DAY_MS)
    ) {
      return hit.value as Promise<T>;
    }
    const value = load();
    const entry: Entry = { generation, loadedAt: now, clockAt: clockNow, value };
    this.#entries.set(key, entry);
    // A failure is not kept: the next load asks again
    value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    this.#sweep(now);
    return value;
  }

  /** The user's account changed: every kept read of theirs is forgotten, including loads still running */
  changed(userId: string): void {
    this.#generation.set(userId, (this.#generation.get(userId) ?? 0) + 1);
  }

  /** Drops stale entries now and then, so idle users do not accumulate */
  #sweep(now: number): void {
    if (this.#entries.size < 1_000) return;
    for (const [key, e] of this.#entries) if (now - e.loadedAt >= this.ttlMs) this.#entries.delete(key);
  }
}
