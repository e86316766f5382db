import { RuntimeConfigSchema } from '@kestrel/contracts';
import {
  createKestrelRuntime,
  createMemoryStorage,
  type KestrelRuntime,
  type KeyValueStorage,
} from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { onTestFinished } from 'vitest';

// Nothing listens on port 1: every request and connect attempt reaches no server and ends in error
const config = RuntimeConfigSchema.parse({
  apiBaseUrl: 'http://127.0.0.1:1',
  socketBaseUrl: 'ws://127.0.0.1:1',
  remotes: {
    dashboard: 'http://127.0.0.1:1/a.json',
    bots: 'http://127.0.0.1:1/b.json',
    exchange_connect: 'http://127.0.0.1:1/c.json',
    account: 'http://127.0.0.1:1/d.json',
  },
});

/**
 * Renders a piece of the shell inside a runtime of its own whose servers do not exist (a test of what the shell
 * shows, not of the server); the view and the runtime go when the test ends
 */
export function renderOffline(
  ui: ReactNode,
  storage: KeyValueStorage = createMemoryStorage(),
): { runtime: KestrelRuntime; view: ReturnType<typeof render> } {
  const runtime = createKestrelRuntime(config, { storage });
  const view = render(<KestrelRuntimeProvider runtime={runtime}>{ui}</KestrelRuntimeProvider>);
  onTestFinished(() => {
    cleanup();
    runtime.dispose();
  });
  return { runtime, view };
}
