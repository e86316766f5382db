import { isBotClientOrderId } from '../orders/client-order-id';

/** The symbol on the bot's account as a live start reads it (once, with one opening of the keys) */
export interface SymbolOnAccount {
  /** The account is in hedge mode (a long and a short per symbol) */
  hedgeMode: boolean;
  /** The account's position on the symbol, signed (one-way mode: one per symbol) */
  position: number;
  /** The client order ids of the account's working orders on the symbol */
  openOrders: readonly string[];
  /** Other live bots of the account running on the symbol */
  otherLiveBots: number;
}

/**
 * A bot trades one-way positions (its orders carry no `positionSide`): an account in hedge mode would refuse its
 * first order (-4061), so a live start says so before anything is sent
 */
export const HEDGE_MODE_REFUSAL =
  'This account is in hedge mode (a long and a short per symbol), and bots trade one-way positions: switch it to ' +
  'one-way mode on Binance (Preferences → Position Mode), then start the bot.';

/**
 * Why a live bot would not have the symbol to itself on its account, or undefined when it would: a Binance account
 * in one-way mode holds one position per symbol, so a bot started next to an open position, the trader's own
 * orders or another live bot trades against them (a grid's sells close part of a manual long) while its figures
 * count only its own fills. The start is refused with these words unless the trader accepts sharing
 */
export function symbolSharing(symbol: string, state: SymbolOnAccount): string | undefined {
  const { position, otherLiveBots: bots } = state;
  const own = state.openOrders.filter((id) => !isBotClientOrderId(id)).length;
  const found: string[] = [];
  if (position !== 0) found.push(`a ${position > 0 ? 'long' : 'short'} position of ${Math.abs(position)}`);
  if (own > 0) found.push(`${own} open order${own === 1 ? '' : 's'} of yours`);
  if (bots > 0) found.push(`${bots === 1 ? 'another live bot' : `${bots} other live bots`}`);
  if (found.length === 0) return undefined;
  const list = found.length === 1 ? found[0] : `${found.slice(0, -1).join(', ')} and ${found.at(-1)}`;
  return (
    `${symbol} already has ${list} on this account. In one-way mode the account holds one position per symbol: ` +
    `this bot’s orders would add to or close it, and its figures would count only its own fills. Close or stop them ` +
    `first, or start it sharing ${symbol}.`
  );
}
