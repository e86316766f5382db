import type { RemoteName, RuntimeConfig } from '@kestrel/contracts';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { assertRemoteCompatible, SHARED_RUNTIME_VERSION } from './version-check';

/** A federated module whose default export is a React component */
export type RemoteComponent<P extends object> = ComponentType<P>;

/** Loads `remote/module` and returns its default export; `fresh` forgets any earlier failed attempt */
export type RemoteComponentLoader = <P extends object>(
  remote: RemoteName,
  module: string,
  options?: { fresh?: boolean },
) => Promise<RemoteComponent<P>>;

/** What the platform view shows about one remote: where it came from, how long it took, what went wrong */
export type RemoteLoadRecord = {
  remote: RemoteName;
  /** The `mf-manifest.json` the remote is registered with (from config.json) */
  entry: string;
  /** Milliseconds from the first request of the remote to its first module ready; null until one loaded */
  firstLoadMs: number | null;
  /** Exposed modules loaded so far, e.g. `./DashboardPage` */
  modules: string[];
  /** Every failed load on this page, oldest first (the last 20) */
  failures: { at: number; module: string; message: string }[];
};

let registeredEntries: Partial<Record<RemoteName, string>> = {};
let runtimeRanges: RuntimeConfig['sharedRuntimeRanges'] = {};
/** One check per remote and page (again after a failed attempt's Retry) */
const compatibility = new Map<RemoteName, Promise<void>>();
let records: readonly RemoteLoadRecord[] = [];
const recordListeners = new Set<() => void>();
const MAX_FAILURES_KEPT = 20;

function updateRecord(remote: RemoteName, change: (record: RemoteLoadRecord) => RemoteLoadRecord): void {
  const entry = registeredEntries[remote] ?? '';
  const current = records.find((r) => r.remote === remote) ?? {
    remote,
    entry,
    firstLoadMs: null,
    modules: [],
    failures: [],
  };
  records = [...records.filter((r) => r.remote !== remote), change({ ...current, entry })];
  for (const listener of recordListeners) listener();
}

/** The remotes this page has loaded or tried to, for the platform view (a new array after every change) */
export function remoteLoadRecords(): readonly RemoteLoadRecord[] {
  return records;
}

export function subscribeRemoteLoadRecords(listener: () => void): () => void {
  recordListeners.add(listener);
  return () => recordListeners.delete(listener);
}

/** Where each remote is registered from (config.json), for the platform view */
export function registeredRemoteEntries(): Partial<Record<RemoteName, string>> {
  return { ...registeredEntries };
}
const failedRemotes = new Set<RemoteName>();
const loaded = new Map<string, Promise<unknown>>();

/**
 * The compatibility check holds back only what would bring a remote's code or styles onto the page: the early
 * fetch of its page's files (which also links its stylesheet) and its entry script. Module Federation reads the
 * remote's manifest meanwhile, so the check costs a page no round trip of its own before its remote appears, and
 * nothing of a refused build is fetched but its manifest.
 */
const holdRemoteForCheck = {
  name: 'kestrel-shared-runtime-check',
  beforePreloadRemote: async ({ preloadOps }: { preloadOps: { nameOrAlias: string }[] }) => {
    await Promise.all(preloadOps.map((op) => compatible(op.nameOrAlias as RemoteName)));
  },
  loadEntry: async ({ remoteInfo }: { remoteInfo: { name: string } }) => {
    await compatible(remoteInfo.name as RemoteName);
  },
};

/** Registers every remote of the run-time config with the federation runtime; called once at start */
export function registerRemotesFromConfig(config: RuntimeConfig): void {
  registeredEntries = { ...config.remotes };
  runtimeRanges = { ...config.sharedRuntimeRanges };
  compatibility.clear();
  // Once per page: the runtime keeps one plugin per name
  registerPlugins([holdRemoteForCheck]);
  registerRemotes(
    Object.entries(config.remotes).map(([name, entry]) => ({ name, entry })),
    { force: true },
  );
}

function compatible(remote: RemoteName): Promise<void> {
  const entry = registeredEntries[remote];
  if (!entry) return Promise.resolve();
  let check = compatibility.get(remote);
  if (!check) {
    check = assertRemoteCompatible(remote, entry, runtimeRanges[remote] ?? `^${SHARED_RUNTIME_VERSION}`);
    compatibility.set(remote, check);
  }
  return check;
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
    compatibility.delete(remote);
  }
  let pending = loaded.get(id);
  if (!pending) {
    const started = performance.now();
    // Side by side: the check holds back the remote's files (see holdRemoteForCheck) and, when it refuses the
    // build, its reason is what the slot shows
    pending = Promise.all([compatible(remote), loadRemote<{ default?: unknown }>(id)]).then(([, mod]) => {
      if (typeof mod?.default !== 'function' && typeof mod?.default !== 'object') {
        throw new Error(`Federated module ${id} has no default export component`);
      }
      return mod.default;
    });
    loaded.set(id, pending);
    pending.then(
      () =>
        updateRecord(remote, (record) => ({
          ...record,
          firstLoadMs: record.firstLoadMs ?? Math.round(performance.now() - started),
          modules: record.modules.includes(module) ? record.modules : [...record.modules, module],
        })),
      (error: unknown) => {
        loaded.delete(id);
        failedRemotes.add(remote);
        const message = error instanceof Error ? error.message : String(error);
        updateRecord(remote, (record) => ({
          ...record,
          failures: [...record.failures, { at: Date.now(), module, message }].slice(-MAX_FAILURES_KEPT),
        }));
      },
    );
  }
  return (await pending) as RemoteComponent<P>;
};
