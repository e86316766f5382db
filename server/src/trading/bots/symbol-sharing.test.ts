import { describe, expect, it } from 'vitest';
import { type SymbolOnAccount, symbolSharing } from './symbol-sharing';

const state = (position: number, openOrders: string[], otherLiveBots: number): SymbolOnAccount => ({
  hedgeMode: false,
  position,
  openOrders,
  otherLiveBots,
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
});
