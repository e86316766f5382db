import type { BuildInfo } from '@kestrel/contracts';
import { useSyncExternalStore } from 'react';
import { loadContracts } from '../lazy-contracts';
import { type RemoteLoadRecord, remoteLoadRecords, subscribeRemoteLoadRecords } from './remote-loader';

/** The remotes this page has loaded or tried to, live: where from, how long, which failures */
export function useRemoteLoadRecords(): readonly RemoteLoadRecord[] {
  return useSyncExternalStore(subscribeRemoteLoadRecords, remoteLoadRecords, remoteLoadRecords);
}

/**
 * The `build-info.json` beside an app's entry: `entry` is a remote's `mf-manifest.json` URL, or the shell's page
 * origin. Revalidated by the static site on every load (no-cache), so a redeploy shows at once.
 */
export async function fetchBuildInfo(entry: string, signal?: AbortSignal): Promise<BuildInfo> {
  const url = new URL('build-info.json', entry);
  // The schema comes with the contracts, loaded beside the request: this entry point's chunk, on every page that
  // shows a remote, then carries no zod schema (and no copy of the config readers under it) of its own
  const [response, { BuildInfoSchema }] = await Promise.all([
    fetch(url, { signal, cache: 'no-cache' }),
    loadContracts(),
  ]);
  if (!response.ok) throw new Error(`${url.host} answered ${response.status} for build-info.json`);
  const parsed = BuildInfoSchema.safeParse(await response.json());
  if (!parsed.success) throw new Error(`${url.host}'s build-info.json is not a Kestrel build description`);
  return parsed.data;
}
