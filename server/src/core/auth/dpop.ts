import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  EmbeddedJWK,
  errors,
  type JWK,
  jwtVerify,
} from 'jose';
import type { Clock } from '../../lib/clock';

/**
 * A refresh proof's `iat` may be this far, either way, from our clock corrected by the browser's clock offset seen
 * at sign-in (the offset travels in the refresh token, signed by us): a device whose clock is wrong by an hour still
 * refreshes, while a proof kept for later is refused. A proof is made the moment it is sent, so the window only
 * covers drift since sign-in and transit. Its jti is remembered for twice this long.
 */
export const DPOP_IAT_WINDOW_S = 300;
/** The only signature the browser's key makes (ECDSA P-256, WebCrypto); anything else is refused before reading */
const DPOP_ALGORITHMS = ['ES256'];
const DPOP_TYP = 'dpop+jwt';
/** Bounds the replay memory: proofs are one per sign-in or refresh, so this is far above any honest rate */
const MAX_REMEMBERED_PROOFS = 100_000;

export type DpopResult =
  | {
      ok: true;
      jkt: string;
      /** The proof's iat minus our time, in whole seconds: the browser's clock offset */
      skewS: number;
    }
  | { ok: false; reason: string };

/**
 * What a proof is checked against. `bound`: the refresh of a token bound to `jkt` whose browser clock was `skewS`
 * off at sign-in (iat window and replay checked). Without it, a sign-in proof: possession of the key only; its
 * iat gives the offset, whatever it is
 */
export interface DpopExpectation {
  method: string;
  path: string;
  bound?: { jkt: string; skewS: number };
}

/**
 * Checks DPoP proofs (RFC 9449 §4.3) for the auth calls: a JWT signed by the key in its own header (public, P-256),
 * typed `dpop+jwt`, whose `htm` is the request's method, whose `htu` path is the request's path, with an `iat`
 * inside the window and a `jti` not seen before for that key. Answers the key's SHA-256 JWK thumbprint (RFC 7638).
 *
 * `htu` is compared by path only (the proof's path must end with the path the server saw): behind a TLS proxy the
 * scheme and host the browser used are not the ones we see, and a proxy may add a path prefix. The proof still
 * names this call, and a proof made for another server is worth nothing without that server's refresh token.
 *
 * The jti memory is per process and holds proofs of refreshes only (see below). A refresh token works once, so a proof replayed with it on another instance
 * finds the token spent; the only gain would be inside the refresh grace window, which needs the same key anyway.
 */
export class DpopVerifier {
  /** `${jkt} ${jti}` → when it may be forgotten (ms) */
  private readonly seen = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  async verify(proof: string | undefined, request: DpopExpectation): Promise<DpopResult> {
    const expectedJkt = request.bound?.jkt;
    if (!proof) return { ok: false, reason: 'the DPoP header is missing' };
    let jwk: JWK | undefined;
    try {
      jwk = decodeProtectedHeader(proof).jwk;
    } catch {
      return { ok: false, reason: 'the DPoP header is not a signed JWT' };
    }
    if (jwk?.kty !== 'EC' || jwk.crv !== 'P-256') {
      return { ok: false, reason: 'the proof must carry its public P-256 key (jwk) in its header' };
    }
    let payload: Record<string, unknown>;
    try {
      // EmbeddedJWK refuses a header key with private parts; the algorithm list refuses `none` and HMAC
      ({ payload } = await jwtVerify(proof, EmbeddedJWK, { algorithms: DPOP_ALGORITHMS, typ: DPOP_TYP }));
    } catch (err) {
      const what = err instanceof errors.JOSEError ? err.code : 'unreadable';
      return { ok: false, reason: `the proof's signature or header does not verify (${what})` };
    }
    const jkt = await calculateJwkThumbprint(jwk, 'sha256');
    if (expectedJkt !== undefined && jkt !== expectedJkt) {
      return { ok: false, reason: 'the proof is signed by another key than the one this token is bound to' };
    }
    if (payload.htm !== request.method) return { ok: false, reason: `htm must be ${request.method}` };
    if (typeof payload.htu !== 'string' || !htuPathMatches(payload.htu, request.path)) {
      return { ok: false, reason: `htu must be this call's URL (${request.path})` };
    }
    const nowS = this.clock.now().getTime() / 1000;
    if (typeof payload.iat !== 'number' || !Number.isFinite(payload.iat)) {
      return { ok: false, reason: 'iat must be the time the proof was made, in seconds' };
    }
    const skewS = Math.round(payload.iat - nowS);
    if (request.bound && Math.abs(payload.iat - request.bound.skewS - nowS) > DPOP_IAT_WINDOW_S) {
      return {
        ok: false,
        reason: "iat is too far from the time (the proof is old, or the device's clock moved since sign-in)",
      };
    }
    if (typeof payload.jti !== 'string' || payload.jti.length < 8 || payload.jti.length > 128) {
      return { ok: false, reason: 'jti must be a unique string of 8 to 128 characters' };
    }
    // Only proofs for a bound token are remembered: a sign-in proof replayed gains nothing (it still needs the
    // password and binds the session to a key the replayer lacks), and remembering those would let anyone with
    // fresh keys fill the memory
    if (expectedJkt === undefined) return { ok: true, jkt, skewS };
    const key = `${jkt} ${payload.jti}`;
    const nowMs = this.clock.now().getTime();
    const until = this.seen.get(key);
    if (until !== undefined && until > nowMs) return { ok: false, reason: 'this proof was already used' };
    if (this.seen.size >= MAX_REMEMBERED_PROOFS) this.forget();
    this.seen.set(key, nowMs + 2 * DPOP_IAT_WINDOW_S * 1000);
    return { ok: true, jkt, skewS };
  }

  /** Drops the proofs whose iat window has passed (they would be refused for their iat anyway) */
  forget(): number {
    const nowMs = this.clock.now().getTime();
    let dropped = 0;
    for (const [key, until] of this.seen) {
      if (until <= nowMs) {
        this.seen.delete(key);
        dropped += 1;
      }
    }
    return dropped;
  }
}

function htuPathMatches(htu: string, path: string): boolean {
  try {
    const url = new URL(htu);
    return url.pathname === path || url.pathname.endsWith(path);
  } catch {
    return false;
  }
}
