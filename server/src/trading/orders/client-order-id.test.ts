import { describe, expect, it } from 'vitest';
import { botClientOrderId, CLIENT_ORDER_ID, manualClientOrderId } from './client-order-id';

describe('client order ids', () => {
  it('a bot intent always gets the same id, legal on Binance, and another intent or bot another one', () => {
    const id = botClientOrderId('bot-a', 'entry:1736935200000');
    expect(id).toBe(botClientOrderId('bot-a', 'entry:1736935200000'));
    expect(id).toMatch(CLIENT_ORDER_ID);
    expect(id.length).toBeLessThanOrEqual(36);
    expect(botClientOrderId('bot-a', 'entry:1736935260000')).not.toBe(id);
    expect(botClientOrderId('bot-b', 'entry:1736935200000')).not.toBe(id);
    // The separator keeps ("a", "b:c") and ("a:b", "c") apart
    expect(botClientOrderId('a', 'b\nc')).not.toBe(botClientOrderId('a\nb', 'c'));
  });

  it('manual: the body id as is, else one derived from the Idempotency-Key per user, else a fresh one', () => {
    expect(manualClientOrderId('u1', { clientOrderId: 'kweb-1' })).toBe('kweb-1');
    const keyed = manualClientOrderId('u1', { idempotencyKey: 'submit-1' });
    expect(keyed).toBe(manualClientOrderId('u1', { idempotencyKey: 'submit-1' }));
    expect(keyed).toMatch(/^km-[A-Za-z0-9_-]{32}$/);
    expect(manualClientOrderId('u2', { idempotencyKey: 'submit-1' })).not.toBe(keyed);
    const fresh = manualClientOrderId('u1', {});
    expect(fresh).toMatch(CLIENT_ORDER_ID);
    expect(manualClientOrderId('u1', {})).not.toBe(fresh);
  });

  it('refuses ids and keys Binance or we cannot take, naming the field and the rule', () => {
    expect(() => manualClientOrderId('u1', { clientOrderId: 'has space' })).toThrow(
      'clientOrderId must be 1-36 characters of A-Z a-z 0-9 . : / _ -',
    );
    expect(() => manualClientOrderId('u1', { idempotencyKey: '' })).toThrow(/^Idempotency-Key must be/);
    expect(() => botClientOrderId('bot-a', '')).toThrow('intentKey must be 1-200 characters');
  });
});
