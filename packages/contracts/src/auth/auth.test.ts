import { describe, expect, it } from 'vitest';
import { SigninRequestSchema, SignupRequestSchema } from './auth';

const messages = (input: unknown) => SignupRequestSchema.safeParse(input).error?.issues.map((i) => i.message);

describe('SignupRequestSchema (POST /api/v1/auth/signup)', () => {
  it('accepts a password of 8 to 128 characters, with no composition rules', () => {
    for (const password of ['a'.repeat(8), 'a'.repeat(128), 'two words']) {
      expect(SignupRequestSchema.safeParse({ email: 'ann@example.com', password }).success).toBe(true);
    }
  });

  it('refuses a password of spaces only (issue 22: eight spaces were accepted)', () => {
    expect(SignupRequestSchema.safeParse({ email: 'ann@example.com', password: '        ' }).success).toBe(
      false,
    );
  });

  it('tells the user the password length it wants', () => {
    expect(messages({ email: 'ann@example.com', password: 'a'.repeat(7) })).toEqual([
      'Password must be at least 8 characters',
    ]);
    expect(messages({ email: 'ann@example.com', password: 'a'.repeat(129) })).toEqual([
      'Password must be at most 128 characters',
    ]);
  });

  it('tells the user an email is not valid', () => {
    expect(messages({ email: 'ann', password: 'long enough' })).toEqual([
      'Email must be a valid email address',
    ]);
  });

  it('trims the optional name and refuses an empty one', () => {
    const base = { email: 'ann@example.com', password: 'long enough' };
    expect(SignupRequestSchema.parse({ ...base, name: '  Ann  ' }).name).toBe('Ann');
    expect(SignupRequestSchema.safeParse({ ...base, name: '   ' }).success).toBe(false);
  });

  it('refuses a field it does not know (the browser must send only the listed ones)', () => {
    const result = SignupRequestSchema.safeParse({
      email: 'ann@example.com',
      password: 'long enough',
      role: 'x',
    });
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['role'] });
  });
});

describe('SigninRequestSchema (POST /api/v1/auth/signin)', () => {
  it('does not apply the sign-up length rule to an existing password', () => {
    expect(SigninRequestSchema.safeParse({ email: 'ann@example.com', password: 'short' }).success).toBe(true);
  });

  it('says the password is required when it is empty', () => {
    const result = SigninRequestSchema.safeParse({ email: 'ann@example.com', password: '' });
    expect(result.error?.issues.map((i) => i.message)).toEqual(['Password is required']);
  });
});
