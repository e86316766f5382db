import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE } from '../../src/core/auth/auth-service';
import { buildTestApp, PASSWORD, signUp, type TestApp, uniqueEmail, useTestApp } from '../helper';

/**
 * Issue "Hardening", finding 2: the sign-in throttle counted by TCP peer only (so behind the TLS proxy every user
 * shared one counter), had no cap per account (55 guesses from 11 addresses, then the right password → 200), and
 * checked before it counted (40 parallel guesses → 11 evaluated, limit 5); sign-ups had no limit at all.
 */
describe('the sign-in throttle', () => {
  const direct = useTestApp();
  let proxied: TestApp;
  beforeAll(async () => {
    // Behind one TLS proxy at 10.0.0.1: the client's address is the last one it appends to X-Forwarded-For
    proxied = await buildTestApp(direct.database.db, {}, { KESTREL_TRUST_PROXY: '10.0.0.1' });
  });
  afterAll(async () => {
    await proxied?.app.close();
  });

  const signin = (t: TestApp, email: string, password: string, ip: string, forwardedFor?: string) =>
    t.request({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email, password },
      remoteAddress: ip,
      ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
    });

  it('behind a trusted proxy, counts each client by its forwarded address, not the proxy’s', async () => {
    const victim = uniqueEmail();
    await signUp(proxied, victim);
    // One client behind the proxy fails often enough to block its own address…
    for (let i = 0; i < THROTTLE.emailIpLimit; i++) {
      expect((await signin(proxied, victim, 'wrong password!', '10.0.0.1', '203.0.113.7')).statusCode).toBe(
        401,
      );
    }
    expect((await signin(proxied, victim, PASSWORD, '10.0.0.1', '203.0.113.7')).statusCode).toBe(429);
    // …and the owner, coming through the same proxy from elsewhere, signs in
    expect((await signin(proxied, victim, PASSWORD, '10.0.0.1', '198.51.100.20')).statusCode).toBe(200);
  });

  it('does not believe X-Forwarded-For from a peer that is not a configured proxy', async () => {
    const email = uniqueEmail();
    await signUp(direct, email);
    for (let i = 0; i < THROTTLE.emailIpLimit; i++) {
      // A new made-up address each time would escape the per-address counter if the header were believed
      await signin(direct, email, 'wrong password!', '192.0.2.50', `203.0.113.${i}`);
    }
    expect((await signin(direct, email, PASSWORD, '192.0.2.50', '203.0.113.99')).statusCode).toBe(429);
  });

  it('caps guesses per account across addresses: after the cap even the right password waits', async () => {
    const email = uniqueEmail();
    await signUp(direct, email);
    // Four guesses from each address stay under the per-address limit of five
    const addresses = Math.ceil(THROTTLE.accountLimit / 4) + 1;
    const answers: number[] = [];
    for (let a = 0; a < addresses; a++) {
      for (let i = 0; i < 4; i++) {
        answers.push((await signin(direct, email, 'wrong password!', `198.18.${a}.1`)).statusCode);
      }
    }
    expect(answers.filter((s) => s === 401)).toHaveLength(THROTTLE.accountLimit);
    const right = await signin(direct, email, PASSWORD, '198.18.200.1');
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('evaluates at most the limit of parallel guesses', async () => {
    const email = uniqueEmail();
    await signUp(direct, email);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => signin(direct, email, 'wrong password!', '192.0.2.77')),
    );
    const evaluated = answers.filter((r) => r.statusCode === 401).length;
    expect(evaluated).toBeLessThanOrEqual(THROTTLE.emailIpLimit);
    expect(answers.filter((r) => r.statusCode === 429).length).toBe(40 - evaluated);
  });

  it('a right password does not clear the counts of a spray across accounts from its address', async () => {
    const own = uniqueEmail();
    await signUp(direct, own);
    // Spraying: one guess at each of many accounts, then signing in to one's own to reset the address's count
    for (let i = 0; i < THROTTLE.ipLimit - 1; i++) await signin(direct, uniqueEmail(), 'guess', '192.0.2.90');
    expect((await signin(direct, own, PASSWORD, '192.0.2.90')).statusCode).toBe(200);
    await signin(direct, uniqueEmail(), 'guess', '192.0.2.90');
    expect((await signin(direct, uniqueEmail(), 'guess', '192.0.2.90')).statusCode).toBe(429);
  });
});

describe('sign-ups per address', () => {
  const t = useTestApp({ env: { KESTREL_SIGNUPS_PER_IP_HOUR: '3' } });

  const signup = (ip: string) =>
    t.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: uniqueEmail(), password: PASSWORD },
      remoteAddress: ip,
    });

  it('refuses more accounts from one address than the hourly limit, for an hour', async () => {
    for (let i = 0; i < 3; i++) expect((await signup('192.0.2.10')).statusCode).toBe(201);
    const refused = await signup('192.0.2.10');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/Too many accounts created from this address/);
    // Another address is not affected
    expect((await signup('192.0.2.11')).statusCode).toBe(201);
    t.clock.advance(THROTTLE.signupWindowMs + 1);
    expect((await signup('192.0.2.10')).statusCode).toBe(201);
  });
});
