import { RuntimeConfigSchema } from '@kestrel/contracts';
import { createKestrelRuntime, createMemoryStorage, type KestrelRuntime } from '@kestrel/shared-runtime';

/** Remotes a page test never loads (the settings page's slot gets a test's own loader) */
const UNUSED = 'http://127.0.0.1:1/mf-manifest.json';

/**
 * A browser of its own for a page test (its own storage, so its own session), talking to this API (by default
 * none: port 1 answers nothing)
 */
export function testRuntime(apiBaseUrl = 'http://127.0.0.1:1'): KestrelRuntime {
  return createKestrelRuntime(
    RuntimeConfigSchema.parse({
      apiBaseUrl,
      socketBaseUrl: 'ws://127.0.0.1:1/ws',
      remotes: { dashboard: UNUSED, bots: UNUSED, exchange_connect: UNUSED, account: UNUSED },
    }),
    { storage: createMemoryStorage() },
  );
}
