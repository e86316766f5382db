import { SPEC } from '../spec';

/** Reads a JWT's `exp` (seconds since epoch) without verifying it: the server does that, we only plan refreshes */
export function tokenExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (payload && typeof payload === 'object' && 'exp' in payload && typeof payload.exp === 'number') {
      return payload.exp;
    }
  } catch {
    // not a JWT payload
  }
  return undefined;
}

/**
 * Spec §5: a refresh token counts as expired if it is not a three-part token, has no expiry, or expires within
 * 30 seconds.
 */
export function isRefreshTokenExpired(token: string, nowMs: number): boolean {
  if (token.split('.').length !== 3) return true;
  const exp = tokenExpiry(token);
  if (exp === undefined) return true;
  return exp * 1000 - nowMs <= SPEC.accessTokenExpiryMarginMs;
}

/**
 * True when an access token expires within the 30 s margin (spec §9), so it is refreshed before use rather than
 * sent to fail. An opaque (non-JWT) token cannot be judged here and is left for the server to accept or refuse.
 */
export function isAccessTokenExpiring(token: string, nowMs: number): boolean {
  const exp = tokenExpiry(token);
  if (exp === undefined) return false;
  return exp * 1000 - nowMs <= SPEC.accessTokenExpiryMarginMs;
}
