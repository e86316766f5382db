import type { PositionSide } from '@kestrel/engine';
import { isBotClientOrderId } from '../orders/client-order-id';
import type { HedgeSide } from './bot-repository';

/** The symbol on the bot's account as a live start reads it (once, with one opening of the keys) */
export interface SymbolOnAccount {
  /** The account is in hedge mode (a long and a short per symbol) */
  hedgeMode: boolean;
  /** The account's positions on the symbol, signed: one (BOTH) in one-way mode, LONG and SHORT in hedge mode */
  positions: readonly { side: 'BOTH' | HedgeSide; amount: number }[];
  /** The account's working orders on the symbol, with the side each trades */
  openOrders: readonly { clientOrderId: string; side: 'BOTH' | HedgeSide }[];
  /** Other live bots of the account running on the symbol */
  otherLiveBots: number;
  /** Of those, the ones holding the side this bot would hold in hedge mode */
  otherLiveBotsOnSide: number;
}

/** The side of its symbol a bot whose strategy takes `side` positions holds in hedge mode; none for both */
export function hedgeSideOf(side: PositionSide): HedgeSide | undefined {
  return side === 'long' ? 'LONG' : side === 'short' ? 'SHORT' : undefined;
}

/**
 * A bot holds one side of its symbol on an account in hedge mode (every order names it): a strategy that takes
 * long and short positions cannot run there. Undefined when it can
 */
export function hedgeModeRefusal(side: PositionSide): string | undefined {
  if (side !== 'both') return undefined;
  return (
    'This account is in hedge mode (a long and a short position per symbol): a bot there holds one side, and ' +
    'this one takes long and short positions. Make it long-only or short-only, or switch the account to one-way ' +
    'mode on Binance (Preferences → Position Mode), then start it.'
  );
}

/**
 * Why a live bot would not have its position to itself on its account, or undefined when it would. In one-way mode
 * the account holds one position per symbol; in hedge mode (`side`) the bot holds one side of it. A bot started next
 * to a position there, the trader's own orders there or another live bot there trades against them (a grid's
 * sells close part of a manual long) while its figures count only its own fills. The start is refused with these
 * words unless the trader accepts sharing
 */
export function symbolSharing(symbol: string, state: SymbolOnAccount, side?: HedgeSide): string | undefined {
  const on = (s: 'BOTH' | HedgeSide) => side === undefined || s === side;
  const position = state.positions.filter((p) => on(p.side)).reduce((sum, p) => sum + p.amount, 0);
  const own = state.openOrders.filter((o) => on(o.side) && !isBotClientOrderId(o.clientOrderId)).length;
  const bots = side === undefined ? state.otherLiveBots : state.otherLiveBotsOnSide;
  const found: string[] = [];
  if (position !== 0) found.push(`a ${position > 0 ? 'long' : 'short'} position of ${Math.abs(position)}`);
  if (own > 0) found.push(`${own} open order${own === 1 ? '' : 's'} of yours`);
  if (bots > 0) found.push(`${bots === 1 ? 'another live bot' : `${bots} other live bots`}`);
  if (found.length === 0) return undefined;
  const list = found.length === 1 ? found[0] : `${found.slice(0, -1).join(', ')} and ${found.at(-1)}`;
  const where =
    side === undefined
      ? `${symbol} already has ${list} on this account. In one-way mode the account holds one position per symbol: `
      : `The ${side === 'LONG' ? 'long' : 'short'} side of ${symbol} already has ${list} on this account. In hedge ` +
        `mode this bot holds that side: `;
  return (
    `${where}this bot’s orders would add to or close it, and its figures would count only its own fills. Close or ` +
    `stop them first, or start it sharing ${symbol}.`
  );
}
