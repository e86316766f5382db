import type { RemoteName, RuntimeConfig } from '@kestrel/contracts';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

/** A federated module whose default export is a React component */
export type RemoteComponent<P extends object> = ComponentType<P>;

/** Loads `remote/module` and returns its default export; `fresh` forgets any earlier failed attempt */
export type RemoteComponentLoader = <P extends object>(
  remote: RemoteName,
  module: string,
  options?: { fresh?: boolean },
) => Promise<RemoteComponent<P>>;

let registeredEntries: Partial<Record<RemoteName, string>> = {};
const failedRemotes = new Set<RemoteName>();
const loaded = new Map<string, Promise<unknown>>();

/** Registers every remote of the run-time config with the federation runtime; called once at start */
export function registerRemotesFromConfig(config: RuntimeConfig): void {
  registeredEntries = { ...config.remotes };
  registerRemotes(
    Object.entries(config.remotes).map(([name, entry]) => ({ name, entry })),
    { force: true },
  );
}

const moduleId = (remote: RemoteName, module: string) => `${remote}/${module.replace(/^\.\//, '')}`;

/** The real loader: goes through the Module Federation runtime and the remote's mf-manifest.json */
export const loadRemoteComponent: RemoteComponentLoader = async <P extends object>(
  remote: RemoteName,
  module: string,
  options: { fresh?: boolean } = {},
) => {
  const id = moduleId(remote, module);
  if (options.fresh && failedRemotes.has(remote)) {
    // A failed manifest or entry can stay cached in the runtime: re-register to start from scratch
    const entry = registeredEntries[remote];
    if (entry) registerRemotes([{ name: remote, entry }], { force: true });
    failedRemotes.delete(remote);
  }
  let pending = loaded.get(id);
  if (!pending) {
    pending = loadRemote<{ default?: unknown }>(id).then((mod) => {
      if (typeof mod?.default !== 'function' && typeof mod?.default !== 'object') {
        throw new Error(`Federated module ${id} has no default export component`);
      }
      return mod.default;
    });
    loaded.set(id, pending);
    pending.catch(() => {
      loaded.delete(id);
      failedRemotes.add(remote);
    });
  }
  return (await pending) as RemoteComponent<P>;
};
