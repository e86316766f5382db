import { describe, expect, it } from 'vitest';
import { UserSchema } from './user';
import { readUser } from './user-read';

const user = {
  id: '0b7f3c1e-5d2a-4e8b-9c41-6a2f0d9e8b17',
  email: 'trader@example.com',
  name: 'Ada',
  created_at: '2026-11-25T18:19:43.123Z',
};

const cases: Array<[string, unknown]> = [
  ['a stored user', user],
  ['no name', { ...user, name: null }],
  ['whole seconds', { ...user, created_at: '2026-11-25T18:19:43Z' }],
  ['no seconds', { ...user, created_at: '2026-11-25T18:19Z' }],
  ['an upper-case id', { ...user, id: user.id.toUpperCase() }],
  ['a field more', { ...user, role: 'admin' }],
  ['a name missing', { id: user.id, email: user.email, created_at: user.created_at }],
  ['a numeric name', { ...user, name: 5 }],
  ['an id that is no UUID', { ...user, id: 'user-1' }],
  ['a UUID of version 0', { ...user, id: '0b7f3c1e-5d2a-0e8b-9c41-6a2f0d9e8b17' }],
  ['a UUID of another variant', { ...user, id: '0b7f3c1e-5d2a-4e8b-7c41-6a2f0d9e8b17' }],
  ['no email', { ...user, email: undefined }],
  ['a date with an offset', { ...user, created_at: '2026-11-25T18:19:43+01:00' }],
  ['a date alone', { ...user, created_at: '2026-11-25' }],
  ['month 13', { ...user, created_at: '2026-13-25T18:19:43Z' }],
  ['hour 24', { ...user, created_at: '2026-11-25T24:19:43Z' }],
  ['null', null],
  ['a list', [user]],
  ['text', 'user'],
];

describe('readUser (the stored user without zod)', () => {
  it.each(cases)('agrees with UserSchema on %s', (_, input) => {
    const byZod = UserSchema.safeParse(input);
    expect(readUser(input)).toEqual(byZod.success ? byZod.data : undefined);
  });
});
