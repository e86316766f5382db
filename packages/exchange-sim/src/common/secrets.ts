import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Random letters and digits, the alphabet of Binance's API keys, secrets and listenKeys. Never derived from the
 * price seed: a key is a credential, and the seed is printed in logs.
 */
export function randomAlphanumeric(length: number): string {
  // 248 = 4 × 62: bytes above it are dropped so every character is equally likely
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += ALPHANUMERIC[b % 62];
    }
  }
  return out;
}
