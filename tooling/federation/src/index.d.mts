// Types of index.mjs for TypeScript callers (the rspack configs are plain .mjs and read the JSDoc)
import type { Configuration } from '@rspack/core';

export type AppName = 'shell' | 'dashboard' | 'bots' | 'exchange_connect' | 'account';

export const DEFAULT_PORTS: Readonly<Record<AppName, number>>;

export function localRuntimeConfig(options?: { host?: string; apiPort?: number }): {
  apiBaseUrl: string;
  socketBaseUrl: string;
  remotes: Record<Exclude<AppName, 'shell'>, string>;
};

export function sharedSingletons(
  deps: Record<string, string>,
  appDir: string,
  isHost?: boolean,
): Record<string, object>;

/** The page modules a remote exposes (exposed module → source file), from the route table in @kestrel/contracts */
export function pageExposes(name: string, dir: string): Record<string, string>;

export function defineFederatedApp(options: {
  name: AppName;
  dir: string;
  exposes?: Record<string, string>;
  title?: string;
  runtimePlugins?: string[];
}): Configuration | Configuration[];
