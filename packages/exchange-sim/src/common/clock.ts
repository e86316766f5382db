/** Source of the simulator's time in epoch milliseconds; injected so tests can jump hours without waiting */
export interface Clock {
  now(): number;
}

/** The wall clock, for the CLI */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; tests use it to reach funding times and liquidations instantly */
export class ManualClock implements Clock {
  #now: number;

  constructor(startMs: number) {
    if (!Number.isFinite(startMs)) throw new Error(`ManualClock needs a finite start time, got ${startMs}`);
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  /** Moves time forward; going back would break the simulator's ordering of events */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error(`ManualClock can only move forward, got ${ms} ms`);
    this.#now += ms;
  }

  set(ms: number): void {
    if (ms < this.#now) throw new Error(`ManualClock can only move forward: ${ms} < ${this.#now}`);
    this.#now = ms;
  }
}
