import { describe, expect, it } from 'vitest';
import { hedgeModeRefusal, type SymbolOnAccount, symbolSharing } from './symbol-sharing';

const state = (position: number, openOrders: string[], otherLiveBots: number): SymbolOnAccount => ({
  hedgeMode: false,
  positions: [{ side: 'BOTH', amount: position }],
  openOrders: openOrders.map((clientOrderId) => ({ clientOrderId, side: 'BOTH' })),
  otherLiveBots,
  otherLiveBotsOnSide: 0,
});

describe('whether a live bot would have its symbol to itself', () => {
  it('it would on a flat account with only bots’ orders on the symbol', () => {
    expect(symbolSharing('BTCUSDT', state(0, ['kb-abc'], 0))).toBeUndefined();
  });

  it('names everything already there: the position and its side, the trader’s orders, other live bots', () => {
    const words = symbolSharing('ETHUSDT', state(-0.25, ['web-1', 'kb-x', 'web-2'], 2));
    expect(words).toMatch(
      /^ETHUSDT already has a short position of 0\.25, 2 open orders of yours and 2 other live bots on this account\. /,
    );
    expect(words).toMatch(/start it sharing ETHUSDT\.$/);
    expect(symbolSharing('BTCUSDT', state(0, [], 1))).toMatch(
      /^BTCUSDT already has another live bot on this account\./,
    );
  });

  it('in hedge mode looks only at the side the bot would hold', () => {
    const hedged: SymbolOnAccount = {
      hedgeMode: true,
      positions: [
        { side: 'LONG', amount: 0 },
        { side: 'SHORT', amount: -0.5 },
      ],
      openOrders: [{ clientOrderId: 'web-1', side: 'SHORT' }],
      otherLiveBots: 1,
      otherLiveBotsOnSide: 0,
    };
    // A short position, an order on the short side and a bot elsewhere leave the long side free
    expect(symbolSharing('BTCUSDT', hedged, 'LONG')).toBeUndefined();
    expect(symbolSharing('BTCUSDT', hedged, 'SHORT')).toMatch(
      /^The short side of BTCUSDT already has a short position of 0\.5 and 1 open order of yours on this account\. In hedge mode this bot holds that side: /,
    );
  });

  it('a bot taking both sides cannot run in hedge mode; a one-sided one can', () => {
    expect(hedgeModeRefusal('both')).toMatch(/Make it long-only or short-only, or switch the account/);
    expect(hedgeModeRefusal('long')).toBeUndefined();
    expect(hedgeModeRefusal('short')).toBeUndefined();
  });
});
