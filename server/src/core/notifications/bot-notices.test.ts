import { describe, expect, it } from 'vitest';
import { botNotice } from './bot-notices';

const bot = { name: 'Grid around 50k', symbol: 'BTCUSDT', mode: 'live' };
const line = (kind: Parameters<typeof botNotice>[1]['kind'], data: Record<string, unknown> = {}) => ({
  botId: 'b1',
  kind,
  message: `a ${kind} line`,
  data,
});

describe('which lines of a bot’s log become notices', () => {
  it('names the bot and carries the line’s words and figures', () => {
    expect(botNotice(bot, line('order_filled', { price: 49_600 }))).toEqual({
      event: 'order_filled',
      content: {
        title: 'Bot “Grid around 50k” (live BTCUSDT): order filled',
        message: 'a order_filled line',
        data: { botId: 'b1', price: 49_600 },
      },
    });
    expect(botNotice(bot, line('risk_stop'))?.event).toBe('bot_stopped_by_risk');
    expect(botNotice(bot, line('started'))?.content.title).toBe('Bot “Grid around 50k” started');
  });

  it('an error line is a stop only when it ends the session; a resume, a signal or an order sent is not a notice', () => {
    expect(botNotice(bot, line('error', { sessionPnl: -3.2, canceled: 2 }))).toMatchObject({
      event: 'bot_stopped',
      content: { title: 'Bot “Grid around 50k” stopped after a failure' },
    });
    expect(botNotice(bot, line('error', { clientOrderId: 'kb-1' }))).toBeUndefined();
    for (const kind of ['resumed', 'signal', 'order_sent', 'created', 'updated'] as const)
      expect(botNotice(bot, line(kind))).toBeUndefined();
  });

  it('says “A bot” when the row is not at hand', () => {
    expect(botNotice({}, line('stopped'))?.content.title).toBe('A bot stopped');
  });
});
