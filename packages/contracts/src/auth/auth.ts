import { z } from 'zod';
import { userText } from '../common/user-text';
import { NAME_MAX_LENGTH } from './limits';
import { EmailSchema, PasswordSchema, UserSchema } from './user';

/** POST /api/v1/auth/signup */
export const SignupRequestSchema = z.strictObject({
  email: EmailSchema,
  password: PasswordSchema,
  name: userText('Name', { max: NAME_MAX_LENGTH }).optional(),
});
export type SignupRequest = z.infer<typeof SignupRequestSchema>;

/** POST /api/v1/auth/signin; the password is only length-checked on sign-up, here any non-empty string */
export const SigninRequestSchema = z.strictObject({
  email: EmailSchema,
  password: z.string().min(1, { error: 'Password is required' }).max(1024),
});
export type SigninRequest = z.infer<typeof SigninRequestSchema>;

/** POST /api/v1/auth/refresh */
export const RefreshRequestSchema = z.strictObject({
  refresh_token: z.string().min(1, { error: 'refresh_token is required' }).max(4096),
});
export type RefreshRequest = z.infer<typeof RefreshRequestSchema>;

/**
 * Answer of sign-up, sign-in and refresh (spec §3 "Auth response"). Both tokens are three-part JWTs with `exp`,
 * because the browser treats a refresh token without an expiry as expired.
 */
export const AuthResponseSchema = z.object({
  success: z.literal(true),
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  /** Seconds until the access token expires */
  expires_in: z.number().int().positive(),
  user: UserSchema,
  message: z.string(),
});
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/** GET /api/v1/auth/me */
export const MeResponseSchema = z.object({
  success: z.literal(true),
  user: UserSchema,
});
export type MeResponse = z.infer<typeof MeResponseSchema>;
