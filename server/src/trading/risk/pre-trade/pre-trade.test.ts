import { describe, expect, it } from 'vitest';
import { judgeBotOrder } from './bot-limits';
import { PreTradePipeline } from './pipeline';
import { type PreTradeCheck, passed, refused, runChecks, type Verdict } from './verdict';

const limits = { dailyLossLimit: 50, maxDrawdownPercent: null, maxNotional: 1_000 };
const figures = { todayPnl: 0, equity: 1_000, positionQty: 0, markPrice: 100 };

describe('pre-trade pipeline: the checks of an order’s origin, one vocabulary', () => {
  it('runs only the checks that apply to the origin, in order, up to the first refusal', () => {
    const ran: string[] = [];
    const check = (
      name: 'account_limits' | 'bot_limits' | 'agent_rules',
      verdict: Verdict,
      appliesTo: PreTradeCheck<null>['appliesTo'],
    ): PreTradeCheck<null> => ({
      name,
      appliesTo,
      run: () => {
        ran.push(name);
        return verdict;
      },
    });
    const checks = [
      check('account_limits', passed('account_limits'), ['manual', 'bot', 'agent']),
      check('bot_limits', refused('bot_limits', 'maxNotional', 'too big'), ['bot', 'agent']),
      check('agent_rules', passed('agent_rules'), ['agent']),
    ];
    expect(runChecks(checks, 'manual', null)).toEqual([passed('account_limits')]);
    expect(runChecks(checks, 'agent', null).map((v) => [v.check, v.ok])).toEqual([
      ['account_limits', true],
      ['bot_limits', false],
    ]);
    expect(ran).toEqual(['account_limits', 'account_limits', 'bot_limits']);
    // The kill switch's closes are judged by nothing
    expect(runChecks(checks, 'kill_switch', null)).toEqual([]);
  });

  it('the order manager’s entry records the caller’s verdicts first; a refusal among them asks nothing more', async () => {
    let asked = 0;
    const pipeline = new PreTradePipeline([
      {
        name: 'account_limits',
        appliesTo: ['manual', 'bot', 'agent'],
        run: async () => {
          asked++;
          return passed('account_limits');
        },
      },
    ]);
    const input = {
      userId: 'u',
      keys: { apiKey: 'k', secretKey: 's' },
      order: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' },
    } as const;
    const ok = await pipeline.judge({ ...input, origin: 'bot', checked: [passed('bot_limits')] });
    expect(ok).toEqual({ origin: 'bot', verdicts: [passed('bot_limits'), passed('account_limits')] });
    const no = await pipeline.judge({ ...input, origin: 'bot', checked: [refused('bot_limits', 'x', 'no')] });
    expect(no.verdicts).toHaveLength(1);
    expect(asked).toBe(1);
    expect(await pipeline.judge({ ...input, origin: 'kill_switch' })).toEqual({
      origin: 'kill_switch',
      verdicts: [],
    });
  });

  it('a bot’s limits on its figures: the breach in the bot log’s words; a reduce-only order passes the notional cap', () => {
    const big = { side: 'buy', type: 'market', quantity: 20 } as const;
    const judged = judgeBotOrder('bot', {
      request: big,
      figures,
      peakEquity: 1_000,
      limits,
      roundQty: (q) => q,
    });
    expect(judged.breach?.message).toBe(
      'Max notional exceeded: the order would make the position 2000.00 USDT, over 1000',
    );
    expect(judged.verdicts).toEqual([
      expect.objectContaining({ check: 'bot_limits', ok: false, code: 'maxNotional' }),
    ]);
    const reducing = { ...big, reduceOnly: true };
    expect(
      judgeBotOrder('bot', { request: reducing, figures, peakEquity: 1_000, limits, roundQty: (q) => q })
        .breach,
    ).toBeUndefined();
    const lossy = { ...figures, todayPnl: -60 };
    expect(
      judgeBotOrder('bot', {
        request: undefined,
        figures: lossy,
        peakEquity: 1_000,
        limits,
        roundQty: (q) => q,
      }).breach?.message,
    ).toBe('Daily loss limit reached: -60.00 USDT of 50');
  });

  it('an exit goes out during a breach; an order that opens or flips the position does not', () => {
    const long = { ...figures, positionQty: 3, todayPnl: -60 };
    const judge = (request: Parameters<typeof judgeBotOrder>[1]['request']) =>
      judgeBotOrder('bot', { request, figures: long, peakEquity: 1_000, limits, roundQty: (q) => q }).breach
        ?.message;
    // A stop-loss selling the long, whole or in part, with or without the reduce-only flag
    expect(judge({ side: 'sell', type: 'stop-market', quantity: 3, triggerPrice: 90 })).toBeUndefined();
    expect(judge({ side: 'sell', type: 'market', quantity: 1 })).toBeUndefined();
    expect(judge({ side: 'sell', type: 'market', quantity: 3, reduceOnly: true })).toBeUndefined();
    // Adding to the long, or selling past flat into a short, is new risk: refused in the limit's words
    expect(judge({ side: 'buy', type: 'market', quantity: 1 })).toBe(
      'Daily loss limit reached: -60.00 USDT of 50',
    );
    expect(judge({ side: 'sell', type: 'market', quantity: 5 })).toBe(
      'Daily loss limit reached: -60.00 USDT of 50',
    );
  });
});
