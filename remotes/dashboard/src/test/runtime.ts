import { RuntimeConfigSchema } from '@kestrel/contracts';
import { createKestrelRuntime, type KestrelRuntime } from '@kestrel/shared-runtime';

/** Remotes a page test never loads (a page's slots get a test's own loader) */
const UNUSED = 'http://127.0.0.1:1/mf-manifest.json';

/** A runtime for a page test, talking to this API (by default none: port 1 answers nothing) */
export function testRuntime(apiBaseUrl = 'http://127.0.0.1:1'): KestrelRuntime {
  return createKestrelRuntime(
    RuntimeConfigSchema.parse({
      apiBaseUrl,
      socketBaseUrl: 'ws://127.0.0.1:1/ws',
      remotes: { dashboard: UNUSED, bots: UNUSED, exchange_connect: UNUSED, account: UNUSED },
    }),
  );
}
