import type { ZodType } from 'zod';

/**
 * The contracts' schemas (and zod under them, ~30 KB gzip) load on first use, not with the runtime: the landing
 * page starts, reads config.json and the stored session, and shows its forms without them. What the runtime reads
 * as the page starts (config.json, stored state, socket frames) is checked by zod-free readers instead
 * (`readRuntimeConfig`, `readUser`, `readJsonRpcReply`…), held to the schemas' answers by the contracts' tests.
 */
export type Contracts = typeof import('@kestrel/contracts');

/**
 * A reply's schema: the schema itself, or a pick from the contracts (`(c) => c.MeResponseSchema`), which lets the
 * caller name a schema without loading the contracts first; the call loads them beside its request
 */
export type ContractSchema<T> = ZodType<T> | ((contracts: Contracts) => ZodType<T>);

let loading: Promise<Contracts> | undefined;
let loaded: Contracts | undefined;

/** The contracts, loading them on the first call; the bundler fetches their chunk once */
export function loadContracts(): Promise<Contracts> {
  loading ??= import('@kestrel/contracts').then(
    (contracts) => {
      loaded = contracts;
      return contracts;
    },
    (error: unknown) => {
      // A chunk that failed to load (a redeploy, a dropped connection) is asked for again by the next call
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * {@link loadContracts} for a call that starts the load beside its request and may return before reading it:
 * undefined when their code could not be loaded, never a rejection nobody handles
 */
export function tryLoadContracts(): Promise<Contracts | undefined> {
  return loadContracts().catch(() => undefined);
}

/** The contracts when already loaded, for code that must answer synchronously once they are */
export function loadedContracts(): Contracts | undefined {
  return loaded;
}

/** The schema a {@link ContractSchema} names, loading the contracts when it is a pick */
export async function resolveSchema<T>(schema: ContractSchema<T>): Promise<ZodType<T>> {
  return typeof schema === 'function' ? schema(await loadContracts()) : schema;
}

/** Starts loading the contracts when the schema is a pick, so that they arrive beside the call's reply */
export function prefetchSchema(schema: ContractSchema<unknown> | undefined): void {
  if (typeof schema === 'function') void loadContracts().catch(() => undefined);
}
