/** Time source of the services; tests pass a controllable one instead of touching the wall clock */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
