/**
 * Time and timers of the services. Nothing in server/src reads the wall clock or starts a raw timer: it asks its
 * injected `Clock`, so a test hands in a `ManualClock` and moves time by hand (leases, backoffs, the dead-man
 * switch, throttles) instead of sleeping. In the manner of nautilus_trader's `Clock.set_timer` / `TestClock`
 */
export interface Clock {
  now(): Date;
  /** Runs `fn` once, `ms` from now */
  after(ms: number, fn: () => void, options?: TimerOptions): Timer;
  /** Runs `fn` every `ms` from now on until cancelled */
  every(ms: number, fn: () => void, options?: TimerOptions): Timer;
}

export interface TimerOptions {
  /** The timer alone does not keep the process alive (background rounds: recorders, sweeps, heartbeats) */
  unref?: boolean;
}

export interface Timer {
  /** Stops the timer; a no-op once it has run (one-shot) or been cancelled */
  cancel(): void;
}

/** Resolves `ms` from now on the clock's time (a manual clock resolves it when a test advances past it) */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.after(ms, resolve));
}

/** The wall clock and Node's timers */
export const systemClock: Clock = {
  now: () => new Date(),
  after(ms, fn, options) {
    const handle = setTimeout(fn, ms);
    if (options?.unref) handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
  every(ms, fn, options) {
    const handle = setInterval(fn, ms);
    if (options?.unref) handle.unref();
    return { cancel: () => clearInterval(handle) };
  },
};

/**
 * A clock whose time is read from `now` (a simulator's clock, a test's offset) while its timers run on Node's:
 * for code that only needs another time, not control of its timers
 */
export function clockReading(now: () => Date): Clock {
  return { now, after: systemClock.after, every: systemClock.every };
}

interface Scheduled {
  id: number;
  due: number;
  /** Repeat period; undefined for a one-shot timer */
  period: number | undefined;
  fn: () => void;
}

/**
 * A clock for tests: time stands still until `advance` (or `set`) moves it, and the timers due on the way run in
 * time order, each seeing `now()` at its own due time. Timers a callback starts run too when they fall within
 * the advance. Async work a timer starts is not awaited: `advance` is async and yields to the event loop after
 * each timer and at the end, so promise chains that need no I/O settle; for database or network work, wait for the
 * state a user would see
 */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 0;
  readonly #timers = new Map<number, Scheduled>();

  constructor(start: Date | number = Date.UTC(2026, 0, 1)) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  after(ms: number, fn: () => void): Timer {
    return this.#schedule(ms, undefined, fn);
  }

  every(ms: number, fn: () => void): Timer {
    // A zero period would never let time move on
    return this.#schedule(ms, Math.max(1, ms), fn);
  }

  /** Timers waiting (one-shots not yet run, repeating ones not cancelled) */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way */
  async advance(ms: number): Promise<void> {
    if (ms < 0) throw new RangeError('a manual clock only moves forward');
    await this.#runUntil(this.#now + ms);
  }

  /** Moves time to `at` (not backwards), running the timers due by then */
  async set(at: Date | number): Promise<void> {
    const target = typeof at === 'number' ? at : at.getTime();
    if (target < this.#now) throw new RangeError('a manual clock only moves forward');
    await this.#runUntil(target);
  }

  /**
   * Moves time forward by `ms` at once, as when the host was suspended or its clock stepped: each timer that fell
   * due on the way runs once, late, at the new time, and a repeating one goes on a period after it (Node's timers
   * after the event loop was held). For "a day later" without running every round of the day
   */
  async jump(ms: number): Promise<void> {
    if (ms < 0) throw new RangeError('a manual clock only moves forward');
    this.#now += ms;
    const due = [...this.#timers.values()]
      .filter((t) => t.due <= this.#now)
      .sort((a, b) => a.due - b.due || a.id - b.id);
    for (const timer of due) {
      if (!this.#timers.has(timer.id)) continue; // cancelled by a timer that ran before it
      if (timer.period === undefined) this.#timers.delete(timer.id);
      else timer.due = this.#now + timer.period;
      timer.fn();
      await settle();
    }
    await settle();
  }

  #schedule(ms: number, period: number | undefined, fn: () => void): Timer {
    const id = this.#nextId++;
    this.#timers.set(id, { id, due: this.#now + Math.max(0, ms), period, fn });
    return { cancel: () => void this.#timers.delete(id) };
  }

  async #runUntil(target: number): Promise<void> {
    for (;;) {
      const next = [...this.#timers.values()]
        .filter((t) => t.due <= target)
        .sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      this.#now = next.due;
      if (next.period === undefined) this.#timers.delete(next.id);
      else next.due += next.period;
      next.fn();
      // Let the promise chains the callback started take their next steps before the next timer
      await settle();
    }
    this.#now = target;
    // And those of the code the test just ran (an advance of 0 lets awaited lookups answer, as after a real tick)
    await settle();
  }
}

/**
 * Resolves once every promise chain that needs no I/O has taken all its steps: the microtask queue is drained
 * before Node runs the next check-phase callback
 */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

const DAY_MS = 86_400_000;

/** 00:00 UTC of the day `ms` falls in */
export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}
