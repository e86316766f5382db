import { webcrypto } from 'node:crypto';
import { calculateJwkThumbprint, type JWK, SignJWT } from 'jose';
import { systemClock } from '../lib/clock';

export interface DpopKey {
  /** The public key's SHA-256 JWK thumbprint: what the server binds the refresh token to */
  jkt: string;
  jwk: JWK;
  /**
   * A DPoP proof (RFC 9449) for `method` `url`, signed like the browser signs it; `claims` and `header` override
   * fields, to make the proofs a server must refuse
   */
  proof(
    method: string,
    url: string,
    overrides?: { claims?: Record<string, unknown>; header?: Record<string, unknown> },
  ): Promise<string>;
}

/**
 * A non-extractable ECDSA P-256 key pair made with node's WebCrypto, as the browser's runtime makes one. `nowMs`
 * gives the proofs' iat: pass the test app's clock when it is not the wall clock
 */
export async function makeDpopKey(nowMs: () => number = () => systemClock.now().getTime()): Promise<DpopKey> {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ]);
  const { kty, crv, x, y } = (await webcrypto.subtle.exportKey('jwk', pair.publicKey)) as JWK;
  const jwk: JWK = { kty, crv, x, y };
  return {
    jwk,
    jkt: await calculateJwkThumbprint(jwk, 'sha256'),
    proof: (method, url, overrides = {}) =>
      new SignJWT({
        htm: method,
        htu: url,
        iat: Math.floor(nowMs() / 1000),
        jti: webcrypto.randomUUID(),
        ...overrides.claims,
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk, ...overrides.header })
        .sign(pair.privateKey),
  };
}
