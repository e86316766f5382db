import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../auth/limits';
import { PasswordSchema, UserSchema } from '../auth/user';
import { BotRiskLimitsSchema } from '../bots/bots';
import { okResponse } from '../common/error-response';
import { countParam, limitText, ms } from '../common/fields';
import { userText } from '../common/user-text';

/**
 * The account: profile, password, sessions, step-up, deletion, its audit and settings (`/api/v1/account/*`).
 * Times are epoch milliseconds.
 */

/** A password being checked (not chosen): any non-empty string, so an old password shorter than today's rule works */
const currentPassword = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, { error: `${field} is required` })
    .max(1024, { error: `${field} must be at most 1024 characters` });

/**
 * How long a password given (sign-in, sign-up or step-up) lets the session take a guarded action: adding or
 * replacing exchange keys, switching to mainnet, starting a live bot
 */
export const STEP_UP_WINDOW_MS = 5 * 60 * 1000;
/** The error code of a guarded action asked without a recent password (HTTP 403): pages open a password prompt */
export const STEP_UP_REQUIRED = 'STEP_UP_REQUIRED';

/** PATCH /api/v1/account/profile. The email is the sign-in name and is not changed here */
export const UpdateProfileRequestSchema = z.strictObject({
  name: userText('Display name', { max: NAME_MAX_LENGTH, min: 0 })
    // Empty clears the name
    .transform((name) => (name === '' ? null : name))
    .nullable(),
});
export type UpdateProfileRequest = z.input<typeof UpdateProfileRequestSchema>;
export const ProfileResponseSchema = okResponse(UserSchema);

/** POST /api/v1/account/password: signs out every other session */
export const ChangePasswordRequestSchema = z
  .strictObject({
    current_password: currentPassword('Current password'),
    new_password: PasswordSchema,
  })
  .refine((b) => b.current_password !== b.new_password, {
    path: ['new_password'],
    error: 'New password must differ from the current one',
  });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;
export const ChangePasswordResponseSchema = okResponse(
  z.object({ sessionsEnded: z.number().int().nonnegative() }),
);

/** POST /api/v1/account/step-up: the password again, for the guarded actions of the next 5 minutes */
export const StepUpRequestSchema = z.strictObject({ password: currentPassword('Password') });
export type StepUpRequest = z.infer<typeof StepUpRequestSchema>;
export const StepUpResponseSchema = okResponse(z.object({ validUntil: ms }));

/** DELETE /api/v1/account/sessions: every session but this one */
export const RevokeOtherSessionsResponseSchema = okResponse(
  z.object({ sessionsEnded: z.number().int().nonnegative() }),
);

/** The words a user types to confirm deleting the account */
export const DELETE_ACCOUNT_CONFIRMATION = 'DELETE';

/** POST /api/v1/account/delete: the password and the typed confirmation */
export const DeleteAccountRequestSchema = z.strictObject({
  password: currentPassword('Password'),
  // A string checked for the words (not a literal type), so the form's empty field has the request's type
  confirmation: z
    .string({ error: `Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm` })
    .refine((text): boolean => text === DELETE_ACCOUNT_CONFIRMATION, {
      error: `Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`,
    }),
});
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequestSchema>;

export const ACCOUNT_EVENT_KINDS = [
  'signup',
  'signin',
  'profile',
  'password',
  'session_revoked',
  'sessions_revoked',
  'step_up',
  'step_up_failed',
  'keys_saved',
  'keys_deleted',
  'keys_refused',
  'settings',
  'environment',
] as const;
export const AccountEventKindSchema = z.enum(ACCOUNT_EVENT_KINDS);
export type AccountEventKind = z.infer<typeof AccountEventKindSchema>;

/** One change to the account, in words ("Password changed; 2 other sessions signed out") */
export const AccountEventSchema = z.object({
  id: z.uuid(),
  kind: AccountEventKindSchema,
  message: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: ms,
});
export type AccountEvent = z.infer<typeof AccountEventSchema>;

/** GET /api/v1/account/events?limit= (newest first) */
export const AccountEventsQuerySchema = z.strictObject({
  limit: countParam('limit', { max: 200, default: 50 }),
});
export const AccountEventsResponseSchema = okResponse(z.array(AccountEventSchema));

/** GET/PUT /api/v1/account/settings: defaults stored on the server (theme and environment stay in the browser) */
export const AccountSettingsSchema = z.strictObject({
  /** The risk limits a new bot starts with (its form is prefilled with them) */
  defaultBotRiskLimits: BotRiskLimitsSchema,
});
export type AccountSettings = z.output<typeof AccountSettingsSchema>;
export type AccountSettingsInput = z.input<typeof AccountSettingsSchema>;
export const StoredAccountSettingsSchema = z.object({
  defaultBotRiskLimits: BotRiskLimitsSchema,
  /** null: never changed (the defaults) */
  updatedAt: ms.nullable(),
});
export type StoredAccountSettings = z.infer<typeof StoredAccountSettingsSchema>;
export const AccountSettingsResponseSchema = okResponse(StoredAccountSettingsSchema);

const botLimit = BotRiskLimitsSchema.shape;
/** The settings form's default bot limits: the fields as typed, read by the same rules as the server's */
export const BotRiskLimitsFormSchema = z.object({
  maxNotional: limitText(botLimit.maxNotional.removeDefault(), 'Max notional'),
  dailyLossLimit: limitText(botLimit.dailyLossLimit.removeDefault(), 'Daily loss limit'),
  maxDrawdownPercent: limitText(botLimit.maxDrawdownPercent.removeDefault(), 'Max drawdown'),
});
export type BotRiskLimitsFormValues = z.input<typeof BotRiskLimitsFormSchema>;

/** The password form: the request's rules plus the new password typed twice (only the page can check that) */
export const ChangePasswordFormSchema = z
  .object({
    current_password: currentPassword('Current password'),
    new_password: PasswordSchema,
    repeat: z.string(),
  })
  .refine((v) => v.current_password !== v.new_password, {
    path: ['new_password'],
    error: 'New password must differ from the current one',
  })
  .refine((v) => v.repeat === v.new_password, { path: ['repeat'], error: 'The two new passwords differ' })
  .transform(
    ({ current_password, new_password }): ChangePasswordRequest => ({ current_password, new_password }),
  );
export type ChangePasswordFormValues = z.input<typeof ChangePasswordFormSchema>;
