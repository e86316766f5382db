import type { TradingEnvironment } from '@kestrel/contracts';

/**
 * The account a piece of work trades on: which user's keys, on which environment's exchange host. It is decided
 * once, at the edge (a signed-in request from the user's current environment or its `?environment=`, a bot
 * session from its row, the recorder and the live streams from the keys they follow), and then handed down as is.
 * So no service in the middle of a bot's or a request's work can fall back to "the user's current environment":
 * a user who switches environments while a bot trades or a request runs does not move that work to the other
 * exchange, and a service that needs the environment has no way to ask for it but this handle.
 * A user with a testnet and a mainnet key has two accounts, recorded and read apart (migration 016).
 */
export interface TradingAccount {
  readonly userId: string;
  readonly environment: TradingEnvironment;
}
