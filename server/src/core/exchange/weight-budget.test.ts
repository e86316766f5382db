import { describe, expect, it } from 'vitest';
import { WeightBudget } from './weight-budget';

const T = Date.UTC(2026, 0, 15, 12, 0, 10);

describe('WeightBudget', () => {
  it('refuses a user past their share with the time to the next exchange minute, and starts afresh then', () => {
    const budget = new WeightBudget({ limit: 100, userShare: 0.2 });
    for (let i = 0; i < 20; i++) expect(budget.admit('interactive', 'user:a', 1, T).ok).toBe(true);
    const refused = budget.admit('interactive', 'user:a', 1, T);
    expect(refused).toMatchObject({ ok: false, retryAfterMs: 50_000 });
    expect(budget.admit('interactive', 'user:b', 1, T).ok).toBe(true);
    expect(budget.admit('interactive', 'user:a', 1, T + 50_000).ok).toBe(true);
  });

  it('keeps a part for a newcomer once half the interactive share is spent', () => {
    const budget = new WeightBudget({ limit: 100, userShare: 0.8 });
    // 80 interactive: a and b spend 20 each (half: 40)
    for (const u of ['user:a', 'user:b']) for (let i = 0; i < 20; i++) budget.admit('interactive', u, 1, T);
    // Parts are 80 / (2 users + 1) = 26: a may go up to 26, not beyond
    for (let i = 0; i < 6; i++) expect(budget.admit('interactive', 'user:a', 1, T).ok).toBe(true);
    const refused = budget.admit('interactive', 'user:a', 1, T);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toMatch(
      /shared by 2 users this minute and you have used your part \(26 of 26/,
    );
    // c, new, still gets a part
    expect(budget.admit('interactive', 'user:c', 10, T).ok).toBe(true);
  });

  it('keeps the last fifth for trading: reads stop at 80 %, orders and cancels go on, downloads stop at half', () => {
    const budget = new WeightBudget({ limit: 100 });
    budget.settle(0, 79, T);
    expect(budget.admit('interactive', 'user:a', 2, T).ok).toBe(false);
    expect(budget.admit('background', 'user:a', 1, T).ok).toBe(false);
    expect(budget.admit('trade', 'user:a', 1, T).ok).toBe(true);
    budget.settle(0, 97, T);
    expect(budget.admit('trade', 'user:a', 1, T).ok).toBe(false);
    // An order costs no IP weight: it is never held back by the weight of others
    expect(budget.admit('trade', 'user:a', 0, T).ok).toBe(true);
  });

  it("follows the exchange's count when it is higher than ours (other processes on the IP)", () => {
    const budget = new WeightBudget({ limit: 100 });
    expect(budget.admit('interactive', 'user:a', 5, T).ok).toBe(true);
    budget.settle(5, 60, T);
    expect(budget.used(T)).toBe(60);
    budget.settle(0, 10, T);
    expect(budget.used(T)).toBe(60);
  });

  it("refuses the account's 301st order in 10 s and its 1201st in a minute, before sending", () => {
    const budget = new WeightBudget({ limit: 2400 });
    for (let i = 0; i < 300; i++) expect(budget.admitOrder('account:x', T).ok).toBe(true);
    const refused = budget.admitOrder('account:x', T);
    expect(refused).toMatchObject({ ok: false, retryAfterMs: 10_000 });
    expect(!refused.ok && refused.message).toMatch(
      /^This account has placed 300 orders in 10 s, Binance's limit is 300/,
    );
    expect(budget.admitOrder('account:y', T).ok).toBe(true);
    budget.noteOrderCounts('account:z', { minute: 1200 }, T);
    expect(budget.admitOrder('account:z', T)).toMatchObject({ ok: false, retryAfterMs: 50_000 });
  });
});
