import { dictionary } from '@zxcvbn-ts/language-common';
import { HttpError } from '../../lib/http-error';

/**
 * NIST 800-63B §5.1.1.2: a new password is compared with passwords known from breaches and with words of the
 * service's own context. The list is @zxcvbn-ts/language-common's `passwords-common` (MIT, ~49,000 passwords ranked
 * by how often they appear in breach dumps, shipped in the package: no network call). It is read into a set on first
 * use (~60 ms, ~4 MB) and compared lower-cased, so `Password1` is refused like `password1`.
 */
let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

/** Words of this service and this account that make a guessable password on their own */
function contextWords(email: string | undefined): string[] {
  const local = email?.split('@')[0]?.toLowerCase();
  return ['kestrel', ...(email ? [email.toLowerCase()] : []), ...(local && local.length >= 4 ? [local] : [])];
}

/**
 * Refuses a new password (sign-up, password change) that a guesser tries first: one from the breached-password list,
 * or the email, its name part or the product's name with at most digits and symbols around it. 400 saying why; the
 * length rules are the contract's (8–128)
 */
export function assertPasswordAcceptable(password: string, email?: string): void {
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower) || commonPasswords().has(lower.trim())) {
    throw new HttpError(
      400,
      'PASSWORD_TOO_COMMON',
      'Password is too common: it is on a list of passwords leaked in data breaches, which attackers try first. Choose another one, for example a few unrelated words.',
    );
  }
  const core = lower.replace(/[^\p{L}]/gu, '');
  if (contextWords(email).some((w) => core === w.replace(/[^\p{L}]/gu, ''))) {
    throw new HttpError(
      400,
      'PASSWORD_TOO_COMMON',
      'Password is too easy to guess: it is built from your email address or the name Kestrel. Choose another one, for example a few unrelated words.',
    );
  }
}
