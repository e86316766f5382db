import type { RemoteName } from '@kestrel/contracts';
// The version this copy of the runtime is: every remote on the page runs on it (a strict singleton)
import runtimePackage from '../../package.json';
import { fetchBuildInfo } from './platform';

export const SHARED_RUNTIME_VERSION: string = runtimePackage.version;

type Version = [number, number, number];

function parseVersion(text: string): Version | null {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Whether `version` is in `range`: `1.2.3` exactly, `~1.2.3` (same minor), or `^1.2.3` (npm's caret: same major, or
 * for 0.x the same minor, for 0.0.x the same patch), the only forms config.json takes
 */
export function satisfiesRange(version: string, range: string): boolean {
  const have = parseVersion(version);
  const want = parseVersion(range.replace(/^[\^~]/, ''));
  if (!have || !want) return false;
  if (range.startsWith('~')) return compare(have, want) >= 0 && have[0] === want[0] && have[1] === want[1];
  if (!range.startsWith('^')) return compare(have, want) === 0;
  if (compare(have, want) < 0) return false;
  if (want[0] > 0) return have[0] === want[0];
  if (want[1] > 0) return have[0] === 0 && have[1] === want[1];
  return have[0] === 0 && have[1] === 0 && have[2] === want[2];
}

/** A remote whose build was made against a shared runtime this page does not run: it is refused, not started */
export class RemoteIncompatibleError extends Error {
  override name = 'RemoteIncompatibleError';
}

/**
 * Reads the remote's `build-info.json` and refuses a build made against a shared runtime outside `range`. Before
 * Module Federation loads anything: its own strict singleton check would fail later and less clearly, or a
 * careless config would start a second runtime (two sessions, two sockets). A build that says nothing (no
 * build-info.json, an older build) is left to that check.
 */
export async function assertRemoteCompatible(
  remote: RemoteName,
  entry: string,
  range: string,
): Promise<void> {
  let builtAgainst: string | null;
  try {
    builtAgainst = (await fetchBuildInfo(entry)).sharedRuntime;
  } catch {
    return;
  }
  if (builtAgainst && !satisfiesRange(builtAgainst, range)) {
    throw new RemoteIncompatibleError(
      `The ${remote} remote deployed at ${new URL(entry).host} was built for version ${builtAgainst} of Kestrel's shared runtime; this installation expects ${range}. It was not started, so nothing runs twice: deploy a build of it made for ${range}.`,
    );
  }
}
