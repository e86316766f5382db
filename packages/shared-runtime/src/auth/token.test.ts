import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt } from '../test/jwt';
import { isAccessTokenExpiring, isRefreshTokenExpired, tokenExpiry } from './token';

describe('refresh-token expiry rule (spec §5)', () => {
  const start = new Date('2026-03-01T12:00:00Z').getTime();
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(start);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('treats a token that is not three parts as expired', () => {
    expect(isRefreshTokenExpired('opaque-refresh-token', Date.now())).toBe(true);
    expect(isRefreshTokenExpired('a.b', Date.now())).toBe(true);
  });

  it('treats a token without expiry as expired', () => {
    expect(isRefreshTokenExpired(fakeJwt({ sub: '1' }), Date.now())).toBe(true);
    expect(isRefreshTokenExpired('a.not-base64-json.c', Date.now())).toBe(true);
  });

  it('treats a token expiring within 30 s as expired, and one at 31 s as usable', () => {
    const token = fakeJwt({ exp: start / 1000 + 31 });
    expect(tokenExpiry(token)).toBe(start / 1000 + 31);
    expect(isRefreshTokenExpired(token, Date.now())).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(isRefreshTokenExpired(token, Date.now())).toBe(true);
  });

  it('applies the same 30 s margin to access tokens, leaving opaque ones to the server', () => {
    const token = fakeJwt({ exp: start / 1000 + 60 });
    expect(isAccessTokenExpiring(token, Date.now())).toBe(false);
    vi.advanceTimersByTime(30_000);
    expect(isAccessTokenExpiring(token, Date.now())).toBe(true);
    expect(isAccessTokenExpiring('opaque', Date.now())).toBe(false);
  });
});
