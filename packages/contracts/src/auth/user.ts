import { z } from 'zod';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './limits';

export const EmailSchema = z
  .email({ error: 'Email must be a valid email address' })
  .max(EMAIL_MAX_LENGTH, { error: `Email must be at most ${EMAIL_MAX_LENGTH} characters` });

/** Length only: no composition rules (NIST SP 800-63B) */
export const PasswordSchema = z
  .string({ error: 'Password must be a string' })
  .min(PASSWORD_MIN_LENGTH, { error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(PASSWORD_MAX_LENGTH, { error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` })
  // Spaces inside a passphrase are welcome (NIST 800-63B); a password of nothing but spaces is no secret
  .refine((p) => p.trim() !== '', { error: 'Password must not be only spaces' });

/** The signed-in user as the browser stores it */
export const UserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  created_at: z.iso.datetime(),
});
export type User = z.infer<typeof UserSchema>;
