import { createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { errors } from '../common/errors';
import type { Exchange } from '../matching/exchange';
import type { Account } from '../matching/types';
import type { Params } from './params';

/** Max recvWindow Binance accepts */
const MAX_RECV_WINDOW = 60_000;

/** `signature=` removed from a raw query or body, keeping every other byte as the client sent it */
function withoutSignature(raw: string): { rest: string; signature?: string } {
  const parts = raw === '' ? [] : raw.split('&');
  const kept: string[] = [];
  let signature: string | undefined;
  for (const part of parts) {
    if (part.startsWith('signature=')) signature = decodeURIComponent(part.slice('signature='.length));
    else kept.push(part);
  }
  return { rest: kept.join('&'), signature };
}

/**
 * Binance's signed-request check: HMAC-SHA256 with the key's secret over `queryString + body` (no separator),
 * with the `signature` parameter itself left out wherever it was sent; hex compared without case
 */
export function verifySignature(secret: string, rawQuery: string, rawBody: string): boolean {
  const q = withoutSignature(rawQuery);
  const b = withoutSignature(rawBody);
  const signature = q.signature ?? b.signature;
  if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', secret)
    .update(q.rest + b.rest)
    .digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/**
 * Binance's check for an RSA or Ed25519 API key: the same payload (`queryString + body`, signature left out),
 * signed with the private key (RSA: RSASSA-PKCS1-v1_5 over SHA-256; Ed25519: pure), base64 then URL-encoded
 */
export function verifyAsymmetricSignature(publicKeyPem: string, rawQuery: string, rawBody: string): boolean {
  const q = withoutSignature(rawQuery);
  const b = withoutSignature(rawBody);
  const signature = q.signature ?? b.signature;
  if (!signature || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  const key = createPublicKey(publicKeyPem);
  const payload = Buffer.from(q.rest + b.rest);
  const sig = Buffer.from(signature, 'base64');
  return verify(key.asymmetricKeyType === 'ed25519' ? null : 'sha256', payload, key, sig);
}

export function hasSignature(rawQuery: string, rawBody: string): boolean {
  return (
    withoutSignature(rawQuery).signature !== undefined || withoutSignature(rawBody).signature !== undefined
  );
}

/** The account behind `X-MBX-APIKEY`, or Binance's -2014/-2015 */
export function accountForKey(exchange: Exchange, apiKey: string | undefined, ip: string): Account {
  // A missing header is a malformed key to Binance (-2014); a well-formed unknown key is -2015
  if (!apiKey || !/^[A-Za-z0-9]{16,128}$/.test(apiKey)) throw errors.badKeyFormat();
  const account = exchange.accountByKey(apiKey);
  if (!account) throw errors.rejectedKey(ip);
  return account;
}

/**
 * timestamp/recvWindow rule: accepted iff timestamp < serverTime + 1000 and serverTime − timestamp ≤ recvWindow,
 * else -1021
 */
export function checkTimestamp(params: Params, serverTime: number): void {
  const timestamp = params.int('timestamp');
  if (timestamp === undefined) throw errors.mandatory('timestamp');
  const recvWindow = params.int('recvWindow') ?? 5000;
  if (recvWindow <= 0 || recvWindow > MAX_RECV_WINDOW) {
    throw errors.invalidParam(`recvWindow must be less than ${MAX_RECV_WINDOW}`);
  }
  if (timestamp >= serverTime + 1000) throw errors.timestampAhead();
  if (serverTime - timestamp > recvWindow) throw errors.timestampOutside();
}

/** Full signed-endpoint check in Binance's order: key, signature present, signature valid, time window */
export function authenticateSigned(
  exchange: Exchange,
  apiKey: string | undefined,
  ip: string,
  rawQuery: string,
  rawBody: string,
  params: Params,
  serverTime: number,
): Account {
  const account = accountForKey(exchange, apiKey, ip);
  if (!hasSignature(rawQuery, rawBody)) throw errors.mandatory('signature');
  if (!params.has('timestamp')) throw errors.mandatory('timestamp');
  const valid = account.publicKey
    ? verifyAsymmetricSignature(account.publicKey, rawQuery, rawBody)
    : verifySignature(account.secretKey, rawQuery, rawBody);
  if (!valid) throw errors.badSignature();
  checkTimestamp(params, serverTime);
  return account;
}
