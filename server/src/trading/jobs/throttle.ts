/** Lets an event through at most once per `intervalMs` (the first one at once) */
export class Throttle {
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {}

  ready(): boolean {
    const now = this.now();
    if (now - this.last < this.intervalMs) return false;
    this.last = now;
    return true;
  }
}
