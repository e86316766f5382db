import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Keyring, MasterKey } from './master-key';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const DATA_KEY_BYTES = 32;

/** What is stored: which master key wraps the data key, the wrapped data key, and the sealed payload */
export interface SealedSecret {
  masterKeyId: string;
  wrappedDataKey: Buffer;
  ciphertext: Buffer;
}

/** Any failure to open a sealed secret: wrong key, tampered bytes, or data moved to another user or exchange */
export class DecryptionError extends Error {
  constructor(message = 'Stored secret failed its integrity check') {
    super(message);
    this.name = 'DecryptionError';
  }
}

/** AES-256-GCM; output is iv | ciphertext | tag */
function gcmSeal(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function gcmOpen(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new DecryptionError();
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const body = sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new DecryptionError();
  }
}

// The data key's wrapping is bound to the same context, so a wrapped key cannot be moved between rows either
const wrapAad = (context: string) => Buffer.from(`kestrel/data-key/v1|${context}`);
const payloadAad = (context: string) => Buffer.from(`kestrel/payload/v1|${context}`);

/**
 * Seals `plaintext` under a fresh random data key, wrapped by the keyring's current master key. `context` is the
 * authenticated data (e.g. user and exchange): opening with another context fails.
 */
export function seal(keyring: Keyring, plaintext: Buffer, context: string): SealedSecret {
  const dataKey = randomBytes(DATA_KEY_BYTES);
  try {
    return {
      masterKeyId: keyring.current.id,
      wrappedDataKey: gcmSeal(keyring.current.key, dataKey, wrapAad(context)),
      ciphertext: gcmSeal(dataKey, plaintext, payloadAad(context)),
    };
  } finally {
    dataKey.fill(0);
  }
}

function unwrap(keyring: Keyring, sealed: SealedSecret, context: string): Buffer {
  const masterKey = keyring.byId(sealed.masterKeyId);
  if (!masterKey)
    throw new DecryptionError('Stored secret was sealed with a master key that is not configured');
  return gcmOpen(masterKey.key, sealed.wrappedDataKey, wrapAad(context));
}

export function open(keyring: Keyring, sealed: SealedSecret, context: string): Buffer {
  const dataKey = unwrap(keyring, sealed, context);
  try {
    return gcmOpen(dataKey, sealed.ciphertext, payloadAad(context));
  } finally {
    dataKey.fill(0);
  }
}

/** Re-wraps the data key under `to` (master-key rotation); the payload ciphertext is untouched */
export function rewrap(keyring: Keyring, sealed: SealedSecret, context: string, to: MasterKey): SealedSecret {
  const dataKey = unwrap(keyring, sealed, context);
  try {
    return { ...sealed, masterKeyId: to.id, wrappedDataKey: gcmSeal(to.key, dataKey, wrapAad(context)) };
  } finally {
    dataKey.fill(0);
  }
}
