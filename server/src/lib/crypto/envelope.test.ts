import { describe, expect, it } from 'vitest';
import { DecryptionError, open, rewrap, seal } from './envelope';
import { generateMasterKey, makeKeyring } from './master-key';

const context = 'exchange-credentials|user=u1|exchange=binance';
const secret = Buffer.from('{"api_key":"k","secret_key":"s3cr3t-value"}');

describe('envelope encryption', () => {
  it('opens what it sealed, and the sealed bytes do not contain the plaintext', () => {
    const keyring = makeKeyring([generateMasterKey()]);
    const sealed = seal(keyring, secret, context);
    expect(sealed.masterKeyId).toBe(keyring.current.id);
    expect(sealed.ciphertext.includes(Buffer.from('s3cr3t-value'))).toBe(false);
    expect(open(keyring, sealed, context)).toEqual(secret);
  });

  it('uses a fresh data key and IV each time', () => {
    const keyring = makeKeyring([generateMasterKey()]);
    const a = seal(keyring, secret, context);
    const b = seal(keyring, secret, context);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.wrappedDataKey.equals(b.wrappedDataKey)).toBe(false);
  });

  it('fails when any single byte of the ciphertext or the wrapped data key is changed', () => {
    const keyring = makeKeyring([generateMasterKey()]);
    const sealed = seal(keyring, secret, context);
    for (const field of ['ciphertext', 'wrappedDataKey'] as const) {
      for (let i = 0; i < sealed[field].length; i += 1) {
        const tampered = Buffer.from(sealed[field]);
        tampered[i] = (tampered[i] ?? 0) ^ 0x01;
        expect(() => open(keyring, { ...sealed, [field]: tampered }, context), `${field}[${i}]`).toThrow(
          DecryptionError,
        );
      }
    }
  });

  it('fails when truncated or extended', () => {
    const keyring = makeKeyring([generateMasterKey()]);
    const sealed = seal(keyring, secret, context);
    expect(() =>
      open(keyring, { ...sealed, ciphertext: sealed.ciphertext.subarray(0, 20) }, context),
    ).toThrow(DecryptionError);
    expect(() =>
      open(keyring, { ...sealed, ciphertext: Buffer.concat([sealed.ciphertext, Buffer.from([0])]) }, context),
    ).toThrow(DecryptionError);
  });

  it('binds the ciphertext to its user and exchange (authenticated data)', () => {
    const keyring = makeKeyring([generateMasterKey()]);
    const sealed = seal(keyring, secret, context);
    expect(() => open(keyring, sealed, 'exchange-credentials|user=u2|exchange=binance')).toThrow(
      DecryptionError,
    );
    expect(() => open(keyring, sealed, 'exchange-credentials|user=u1|exchange=bybit')).toThrow(
      DecryptionError,
    );
  });

  it('fails with another master key, or one missing from the keyring', () => {
    const sealed = seal(makeKeyring([generateMasterKey()]), secret, context);
    expect(() => open(makeKeyring([generateMasterKey()]), sealed, context)).toThrow(/not configured/);
  });

  it('re-wraps under a new master key without touching the payload', () => {
    const oldKey = generateMasterKey();
    const newKey = generateMasterKey();
    const sealed = seal(makeKeyring([oldKey]), secret, context);
    const moved = rewrap(makeKeyring([oldKey]), sealed, context, newKey);
    expect(moved.masterKeyId).toBe(newKey.id);
    expect(moved.ciphertext.equals(sealed.ciphertext)).toBe(true);
    expect(open(makeKeyring([newKey]), moved, context)).toEqual(secret);
    expect(() => open(makeKeyring([oldKey]), moved, context)).toThrow(DecryptionError);
  });
});
