import { z } from 'zod';

/**
 * The signed-in user. The spec only says it is stored locally as a JSON object, so every field is optional and
 * unknown fields are kept: the browser must not drop what a newer server adds.
 */
export const UserSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).optional(),
  email: z.string().optional(),
});
export type User = z.infer<typeof UserSchema>;

/** POST /api/v1/auth/signin and /signup: success, access_token, refresh_token, user, message */
export const AuthResponseSchema = z.looseObject({
  success: z.boolean().optional(),
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  user: UserSchema,
  message: z.string().optional(),
});
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/** POST /api/v1/auth/signin body */
export const SignInRequestSchema = z.object({
  email: z.string(),
  password: z.string(),
});
export type SignInRequest = z.infer<typeof SignInRequestSchema>;

/** POST /api/v1/auth/refresh: reads access_token and user; a rotating server may also send a new refresh_token */
export const RefreshResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  user: UserSchema.optional(),
});
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;

/** Error bodies: FastAPI-style `detail` or a `message` */
export const ErrorBodySchema = z.looseObject({
  detail: z.unknown().optional(),
  message: z.unknown().optional(),
});
