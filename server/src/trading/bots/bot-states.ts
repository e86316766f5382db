import type { BotState } from '@kestrel/contracts/bots';

/*
 * What a bot's state says about its session, for the reads that count its figures and the asks that start it
 */

/**
 * States with an open session: a process holds the bot's lease (running it, or finishing its stop), and its figures
 * are the running instance's, not yet the log's (`HELD_STATES` is the same set in SQL)
 */
export const OPEN_SESSION_STATES: ReadonlySet<BotState> = new Set(['starting', 'running', 'stopping']);

/** Only a stopped, errored or paused bot starts; an active one is answered 409 by the runner */
export const isIdleState = (state: BotState) =>
  state === 'stopped' || state === 'error' || state === 'paused';
