// No zod here: the session shows the stored user as the page starts, before the contracts' schemas load.
// `user-read.test.ts` holds this reader to `UserSchema`'s answers.
import type { User } from './user';

/** RFC 9562 UUID text (versions 1–8, the RFC's variant), as `z.uuid()` takes it */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** ISO 8601 date-time in UTC (`Z`) with seconds, their fraction optional, as `z.iso.datetime()` takes it */
const UTC_DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?Z$/;

/** The user as `UserSchema` reads it (id, email, name or null, created_at; other fields dropped), else undefined */
export function readUser(value: unknown): User | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { id, email, name, created_at } = value as Record<string, unknown>;
  if (typeof id !== 'string' || !UUID.test(id)) return undefined;
  if (typeof email !== 'string') return undefined;
  if (name !== null && typeof name !== 'string') return undefined;
  if (typeof created_at !== 'string' || !UTC_DATE_TIME.test(created_at)) return undefined;
  return { id, email, name, created_at };
}
