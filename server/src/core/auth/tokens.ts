import { createHash, createHmac, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../lib/clock';
import type { Keyring } from '../../lib/crypto/master-key';

/** Access tokens live 15 minutes; revocation still applies at once because each request checks the session */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
const ISSUER = 'kestrel';
const ACCESS_AUDIENCE = 'kestrel-api';
const REFRESH_AUDIENCE = 'kestrel-refresh';
const ACCESS_TYP = 'at+jwt';
const REFRESH_TYP = 'refresh+jwt';
/** The only algorithm accepted: `none`, RS/ES confusion and the like fail before any claim is read */
const ALGORITHMS = ['HS256'];

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

export interface RefreshClaims {
  sessionId: string;
  /** The browser key the token is bound to (`cnf.jkt`, RFC 9449 §6, and `dsk`); undefined: an unbound token */
  binding: DpopBinding | undefined;
  /** SHA-256 of the whole token, the only form stored */
  tokenHash: Buffer;
}

/** A refresh token's browser key: its thumbprint and the browser clock's offset from ours at sign-in (seconds) */
export interface DpopBinding {
  jkt: string;
  skewS: number;
}

const bindingClaims = (b: DpopBinding) => ({ cnf: { jkt: b.jkt }, dsk: b.skewS });

export type VerifyResult<T> = { ok: true; claims: T } | { ok: false; reason: 'expired' | 'invalid' };

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * Signs and checks the two kinds of token with HMAC keys derived from the token keys (HKDF), named by `kid`, so a
 * rotation that keeps the previous token key in the keyring keeps sessions alive. The token keys are not the
 * vault's: whoever holds one cannot use it for the other
 */
export class TokenService {
  private readonly keys = new Map<string, Uint8Array>();

  constructor(
    private readonly keyring: Keyring,
    private readonly clock: Clock,
  ) {
    for (const mk of keyring.all) {
      this.keys.set(
        mk.id,
        new Uint8Array(hkdfSync('sha256', mk.key, Buffer.alloc(0), 'kestrel jwt hs256 v1', 32)),
      );
    }
  }

  private nowS(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  private currentKey(): { kid: string; key: Uint8Array } {
    const kid = this.keyring.current.id;
    const key = this.keys.get(kid);
    if (!key) throw new Error('Signing key missing for the current token key');
    return { kid, key };
  }

  private sign(
    payload: JWTPayload,
    typ: string,
    audience: string,
    expiresAtS: number,
    issuedAtS = this.nowS(),
  ): Promise<string> {
    const { kid, key } = this.currentKey();
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ, kid })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setIssuedAt(issuedAtS)
      .setExpirationTime(expiresAtS)
      .sign(key);
  }

  issueAccessToken(claims: AccessClaims): Promise<string> {
    return this.sign(
      { sub: claims.userId, sid: claims.sessionId, jti: randomUUID() },
      ACCESS_TYP,
      ACCESS_AUDIENCE,
      this.nowS() + ACCESS_TOKEN_TTL_S,
    );
  }

  /**
   * A session's first refresh token, bound to the browser key `jkt` (`cnf.jkt`; without one the token is issued
   * unbound and every refresh of it is refused: see AuthService.refresh). The random `jti` (256 bits) makes
   * every refresh token unique even within one second
   */
  issueRefreshToken(sessionId: string, expiresAt: Date, binding: DpopBinding | undefined): Promise<string> {
    const jti = randomBytes(32).toString('base64url');
    return this.sign(
      binding === undefined ? { sid: sessionId, jti } : { sid: sessionId, jti, ...bindingClaims(binding) },
      REFRESH_TYP,
      REFRESH_AUDIENCE,
      Math.floor(expiresAt.getTime() / 1000),
    );
  }

  /**
   * The token that replaces `previousHash` at a rotation made at `rotatedAt`. It is a pure function of its inputs
   * (HS256 is deterministic and the jti is an HMAC of the previous token's hash), so within the grace window the
   * same replacement can be answered again without storing it anywhere
   */
  successorToken(
    previousHash: Buffer,
    session: { id: string; expiresAt: Date; binding: DpopBinding },
    rotatedAt: Date,
  ): Promise<string> {
    const jti = createHmac('sha256', this.currentKey().key)
      .update('kestrel refresh successor v1')
      .update(previousHash)
      .digest('base64url');
    return this.sign(
      { sid: session.id, jti, ...bindingClaims(session.binding) },
      REFRESH_TYP,
      REFRESH_AUDIENCE,
      Math.floor(session.expiresAt.getTime() / 1000),
      Math.floor(rotatedAt.getTime() / 1000),
    );
  }

  private async verify(token: string, typ: string, audience: string): Promise<VerifyResult<JWTPayload>> {
    try {
      const { payload } = await jwtVerify(
        token,
        (header) => {
          const key = header.kid ? this.keys.get(header.kid) : undefined;
          if (!key) throw new errors.JWSInvalid('unknown key id');
          return key;
        },
        {
          algorithms: ALGORITHMS,
          issuer: ISSUER,
          audience,
          typ,
          currentDate: this.clock.now(),
          requiredClaims: ['exp'],
        },
      );
      return { ok: true, claims: payload };
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }

  async verifyAccessToken(token: string): Promise<VerifyResult<AccessClaims>> {
    const res = await this.verify(token, ACCESS_TYP, ACCESS_AUDIENCE);
    if (!res.ok) return res;
    const { sub, sid } = res.claims;
    if (typeof sub !== 'string' || typeof sid !== 'string') return { ok: false, reason: 'invalid' };
    return { ok: true, claims: { userId: sub, sessionId: sid } };
  }

  async verifyRefreshToken(token: string): Promise<VerifyResult<RefreshClaims>> {
    const res = await this.verify(token, REFRESH_TYP, REFRESH_AUDIENCE);
    if (!res.ok) return res;
    const { sid, cnf, dsk } = res.claims;
    if (typeof sid !== 'string') return { ok: false, reason: 'invalid' };
    const jkt =
      cnf && typeof cnf === 'object' && 'jkt' in cnf && typeof cnf.jkt === 'string' ? cnf.jkt : undefined;
    const binding = jkt === undefined ? undefined : { jkt, skewS: typeof dsk === 'number' ? dsk : 0 };
    return { ok: true, claims: { sessionId: sid, binding, tokenHash: hashToken(token) } };
  }
}
