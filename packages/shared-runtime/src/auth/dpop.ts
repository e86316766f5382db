/**
 * The browser's proof-of-possession key for the refresh token (DPoP, RFC 9449 style). The spec keeps the 30-day
 * refresh token in local storage; the server binds it to this key at sign-in and refuses a refresh without a proof
 * signed by it, so a copy of local storage alone refreshes nothing. The key pair is made with WebCrypto as
 * non-extractable (the private key's bytes cannot be read by any script, ours included) and kept as CryptoKey
 * objects in IndexedDB, which stores them without ever exposing them.
 */

/** Where the key pair lives between page loads: IndexedDB in the browser, memory in tests */
export interface DpopKeyStore {
  load(): Promise<CryptoKeyPair | undefined>;
  save(pair: CryptoKeyPair): Promise<void>;
  clear(): Promise<void>;
}

export interface NewKeyProof {
  proof: string;
  /** Stores the new key pair as the browser's key (call it when the sign-in succeeded) */
  keep(): Promise<void>;
}

export interface DpopSigner {
  /**
   * Makes a new key pair for a sign-in or sign-up and answers the proof for it, and `keep`, which stores the pair
   * once the server accepted it (a failed sign-in in one tab must not replace the key another tab's session is
   * bound to). Undefined when this browser has no WebCrypto (an insecure http:// origin): the session then works
   * until its access token expires and cannot be refreshed
   */
  proveNewKey(method: string, url: string): Promise<NewKeyProof | undefined>;
  /** A proof with the stored key, for a refresh; undefined when there is none */
  prove(method: string, url: string): Promise<string | undefined>;
  /** Forgets the key (sign-out, a refused refresh): the next session gets a new one */
  forget(): Promise<void>;
}

const DB_NAME = 'kestrel-auth';
const STORE = 'keys';
const KEY_ID = 'dpop';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** The key pair in IndexedDB (one per origin, so every tab of the shell signs with the same key) */
export function indexedDbKeyStore(factory: IDBFactory = globalThis.indexedDB): DpopKeyStore {
  let opened: Promise<IDBDatabase> | undefined;
  const open = () => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    }).catch((err: unknown) => {
      opened = undefined;
      throw err;
    });
    return opened;
  };
  const inStore = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) => {
    const db = await open();
    return request(work(db.transaction(STORE, mode).objectStore(STORE)));
  };
  return {
    load: async () => {
      const value: unknown = await inStore('readonly', (s) => s.get(KEY_ID));
      return isKeyPair(value) ? value : undefined;
    },
    save: async (pair) => {
      await inStore('readwrite', (s) => s.put(pair, KEY_ID));
    },
    clear: async () => {
      await inStore('readwrite', (s) => s.delete(KEY_ID));
    },
  };
}

export function memoryKeyStore(): DpopKeyStore {
  let pair: CryptoKeyPair | undefined;
  return {
    load: async () => pair,
    save: async (next) => {
      pair = next;
    },
    clear: async () => {
      pair = undefined;
    },
  };
}

function isKeyPair(value: unknown): value is CryptoKeyPair {
  return (
    typeof value === 'object' &&
    value !== null &&
    'privateKey' in value &&
    'publicKey' in value &&
    value.privateKey instanceof CryptoKey &&
    value.publicKey instanceof CryptoKey
  );
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const encodeJson = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

export interface DpopSignerDeps {
  store: DpopKeyStore;
  /** WebCrypto; absent on insecure origins */
  subtle?: SubtleCrypto;
  now?: () => number;
  randomId?: () => string;
}

/** Signs DPoP proofs (typ dpop+jwt, ES256, the public JWK in the header; htm, htu, iat, jti) with the stored key */
export function createDpopSigner(deps: DpopSignerDeps): DpopSigner {
  const subtle = deps.subtle;
  const now = deps.now ?? (() => Date.now());
  const randomId = deps.randomId ?? (() => globalThis.crypto.randomUUID());

  async function sign(pair: CryptoKeyPair, method: string, url: string): Promise<string> {
    if (!subtle) throw new Error('WebCrypto is not available');
    const { kty, crv, x, y } = await subtle.exportKey('jwk', pair.publicKey);
    const header = encodeJson({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } });
    // htu without query and fragment (RFC 9449 §4.2)
    const target = new URL(url);
    const payload = encodeJson({
      htm: method,
      htu: `${target.origin}${target.pathname}`,
      iat: Math.floor(now() / 1000),
      jti: randomId(),
    });
    const input = new TextEncoder().encode(`${header}.${payload}`);
    // WebCrypto's ECDSA signature is r‖s (IEEE P1363), which is exactly the JWS ES256 form
    const signature = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, input);
    return `${header}.${payload}.${base64url(new Uint8Array(signature))}`;
  }

  return {
    async proveNewKey(method, url) {
      if (!subtle) return undefined;
      try {
        // extractable false: the private key can sign, never be exported (the public key is always readable)
        const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
          'sign',
          'verify',
        ]);
        const proof = await sign(pair, method, url);
        return {
          proof,
          keep: async () => {
            try {
              await deps.store.save(pair);
            } catch {
              // No key storage (a private window refusing IndexedDB): signed in, but no refresh later
            }
          },
        };
      } catch {
        // WebCrypto refused: an unbound session beats no sign-in
        return undefined;
      }
    },
    async prove(method, url) {
      if (!subtle) return undefined;
      try {
        const pair = await deps.store.load();
        return pair ? await sign(pair, method, url) : undefined;
      } catch {
        return undefined;
      }
    },
    async forget() {
      try {
        await deps.store.clear();
      } catch {
        // nothing stored, or no storage: nothing to forget
      }
    },
  };
}

/** The browser's signer: WebCrypto and IndexedDB when the page has both, else one that proves nothing */
export function browserDpopSigner(): DpopSigner {
  const subtle = globalThis.isSecureContext === false ? undefined : globalThis.crypto?.subtle;
  const store = globalThis.indexedDB ? indexedDbKeyStore() : memoryKeyStore();
  return createDpopSigner({ store, ...(subtle ? { subtle } : {}) });
}
