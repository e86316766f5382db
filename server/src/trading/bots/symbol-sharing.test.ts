import { describe, expect, it } from 'vitest';
import { type SymbolSharingReads, symbolSharing } from './symbol-sharing';

const account = { userId: 'u1', environment: 'testnet' as const };
const reads = (position: number, orders: string[], bots: number): SymbolSharingReads => ({
  position: async () => position,
  openOrders: async () => orders,
  otherLiveBots: async () => bots,
  hedgeMode: async () => false,
});

describe('whether a live bot would have its symbol to itself', () => {
  it('it would on a flat account with only bots’ orders on the symbol', async () => {
    expect(await symbolSharing(reads(0, ['kb-abc'], 0), account, 'BTCUSDT', 'b1')).toBeUndefined();
  });

  it('names everything already there: the position and its side, the trader’s orders, other live bots', async () => {
    const words = await symbolSharing(reads(-0.25, ['web-1', 'kb-x', 'web-2'], 2), account, 'ETHUSDT', 'b1');
    expect(words).toMatch(
      /^ETHUSDT already has a short position of 0\.25, 2 open orders of yours and 2 other live bots on this account\. /,
    );
    expect(words).toMatch(/start it sharing ETHUSDT\.$/);
    expect(await symbolSharing(reads(0, [], 1), account, 'BTCUSDT', 'b1')).toMatch(
      /^BTCUSDT already has another live bot on this account\./,
    );
  });
});
