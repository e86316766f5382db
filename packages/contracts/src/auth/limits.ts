// No zod here: the sign-up form states these limits on the landing page, before the contracts' schemas load

/** Limits shared by the sign-up form and the server (argon2 input stays bounded) */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;
/**
 * What no text a user writes (a name, a label) may hold: control characters (NUL, line feeds, escapes: NUL cannot
 * be stored as text at all), lone surrogate halves (no character: a database refuses them), and the bidirectional
 * overrides and isolates that make a name read other than it is stored ("gpj.exe" shown as "exe.jpg")
 */
export const FORBIDDEN_IN_TEXT = /[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]/u;
