// No zod here: the sign-up form states these limits on the landing page, before the contracts' schemas load

/** Limits shared by the sign-up form and the server (argon2 input stays bounded) */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;
/** Control characters (NUL, line feeds, escapes…): no place in a name, and NUL cannot be stored as text at all */
export const CONTROL_CHARACTER = /\p{Cc}/u;
