import { signalAlertTemplate } from '@kestrel/contracts/bots';
import { describe, expect, it } from 'vitest';
import { alertMessage, hookUrl, reachNote, signalWhat } from './signal-words';

const none = { action: null, symbol: null, quantity: null, price: null } as const;

describe('a signal in words', () => {
  it('says what it asked, its quantity and price when it named them, and "Not read" when untrusted', () => {
    expect(signalWhat({ ...none, action: 'buy', symbol: 'BTCUSDT' })).toBe('Buy BTCUSDT');
    expect(signalWhat({ action: 'sell', symbol: 'ETHUSDT', quantity: 0.25, price: 3_210.5 })).toBe(
      'Sell ETHUSDT 0.25 @ 3,210.50',
    );
    expect(signalWhat(none)).toBe('Not read');
  });
});

describe('the webhook URL', () => {
  it('is the API base (path prefix kept, no doubled slash) plus the hook path', () => {
    expect(hookUrl('https://api.example.com/', '/api/v1/signals/abc')).toBe(
      'https://api.example.com/api/v1/signals/abc',
    );
    expect(hookUrl('https://example.com/kestrel', '/api/v1/signals/abc')).toBe(
      'https://example.com/kestrel/api/v1/signals/abc',
    );
  });

  it('warns when TradingView could not reach it: a loopback host or a port other than 80 and 443', () => {
    expect(reachNote('http://127.0.0.1:8000/api/v1/signals/x')).toMatch(
      /this computer itself \(127\.0\.0\.1\)/,
    );
    expect(reachNote('http://localhost/api/v1/signals/x')).toMatch(/this computer itself/);
    expect(reachNote('https://kestrel.example.com:8443/api/v1/signals/x')).toMatch(/not 8443/);
    expect(reachNote('https://kestrel.example.com/api/v1/signals/x')).toBeNull();
  });
});

describe('the alert message', () => {
  it('is the contract’s template for a webhook-signal bot, and asks to stop for any other bot', () => {
    expect(alertMessage('ksig_x', true)).toBe(signalAlertTemplate('ksig_x'));
    const other = JSON.parse(alertMessage('ksig_x', false)) as Record<string, string>;
    expect(other).toMatchObject({ secret: 'ksig_x', action: 'stop', symbol: '{{ticker}}' });
    expect(Object.keys(other)).toEqual(Object.keys(JSON.parse(signalAlertTemplate('ksig_x'))));
  });
});
