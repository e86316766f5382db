/**
 * The slice of the Web Storage API the runtime uses, so tests and non-browser hosts can inject their own.
 * `window.localStorage` satisfies it.
 */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Local storage keys (spec §3 "Local storage items"), all under the product's `kestrel-` prefix */
export const STORAGE_KEYS = {
  accessToken: 'kestrel-access-token',
  refreshToken: 'kestrel-refresh-token',
  user: 'kestrel-user',
  exchangeConnections: 'kestrel-exchange-connections',
  selectedExchange: 'kestrel-selected-exchange',
  tradingEnvironment: 'kestrel-trading-environment',
  theme: 'kestrel-theme',
} as const;

/** A storage that lives in memory: for tests, and when the browser refuses local storage (private mode) */
export function createMemoryStorage(initial: Record<string, string> = {}): KeyValueStorage & {
  keys(): string[];
} {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, String(value));
    },
    removeItem: (key) => {
      items.delete(key);
    },
    keys: () => [...items.keys()],
  };
}

/** The browser's local storage when usable, else memory (Safari private mode throws on access) */
export function defaultStorage(): KeyValueStorage {
  try {
    const storage = globalThis.localStorage;
    if (storage) {
      const probe = 'kestrel-storage-probe';
      storage.setItem(probe, probe);
      storage.removeItem(probe);
      return storage;
    }
  } catch {
    // fall through to memory
  }
  return createMemoryStorage();
}

/** UTF-8 safe base64 (btoa alone throws on non-Latin-1 text such as an exchange name with "Ⓢ") */
export function encodeBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Inverse of {@link encodeBase64}; throws on input that is not base64 */
export function decodeBase64(encoded: string): string {
  const binary = atob(encoded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Reads a JSON item, returning `undefined` (and removing the item) when it is missing or unreadable */
export function readJson(storage: KeyValueStorage, key: string, decode?: (raw: string) => string): unknown {
  const raw = storage.getItem(key);
  if (raw === null) return undefined;
  try {
    return JSON.parse(decode ? decode(raw) : raw);
  } catch {
    // A corrupt item would fail every start: drop it so the app recovers
    storage.removeItem(key);
    return undefined;
  }
}
