import { describe, expect, it } from 'vitest';
import { bearer, PASSWORD, signUp, uniqueEmail, useTestApp } from '../helper';

/**
 * Issue "Hardening", finding 6: `12345678` and eight spaces were accepted as passwords. NIST 800-63B: keep the
 * length rule (8–128), refuse passwords known from breaches and all-whitespace ones, and say why.
 */
describe('weak passwords', () => {
  const t = useTestApp();

  const signup = (password: string, email = uniqueEmail()) =>
    t.request({ method: 'POST', url: '/api/v1/auth/signup', payload: { email, password } });

  it.each(['12345678', 'password', 'Password1', 'qwertyuiop', 'iloveyou'])(
    'refuses the breached password %s at sign-up, saying why',
    async (password) => {
      const res = await signup(password);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'PASSWORD_TOO_COMMON' });
      expect(res.json().detail).toMatch(/^Password is too common: it is on a list of passwords leaked/);
    },
  );

  it('refuses a password of spaces only, and one built from the email or the product name', async () => {
    const spaces = await signup(' '.repeat(8));
    expect(spaces.statusCode).toBe(400);
    expect(spaces.json().detail).toMatch(/Password must not be only spaces/);

    const email = uniqueEmail('greta.marsh');
    const own = await signup(`${email.split('@')[0]}!!`, email);
    expect(own.statusCode).toBe(400);
    expect(own.json().detail).toMatch(/built from your email address or the name Kestrel/);
    expect((await signup('Kestrel2026!')).json().detail).toMatch(/name Kestrel/);
  });

  it('keeps the length rules and accepts a passphrase with spaces', async () => {
    expect((await signup('a1b2c3d')).json().detail).toMatch(/at least 8 characters/);
    expect((await signup('x'.repeat(129))).json().detail).toMatch(/at most 128 characters/);
    expect((await signup('  tangerine   orbit  ')).statusCode).toBe(201);
  });

  it('refuses a breached password as the new one on password change, and the old one still works', async () => {
    const email = uniqueEmail();
    const { access_token } = await signUp(t, email);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/account/password',
      headers: bearer(access_token),
      payload: { current_password: PASSWORD, new_password: 'letmein1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^Password is too common/);
    const signin = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email, password: PASSWORD },
    });
    expect(signin.statusCode).toBe(200);
  });
});
