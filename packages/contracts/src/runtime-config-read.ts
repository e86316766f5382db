// No zod here: the browser reads config.json as the page starts, and zod (~25 KB gzip) must not be on that path.
// `runtime-config.ts` holds the same rules as zod schemas for the server and the tooling;
// `runtime-config-read.test.ts` holds the two to the same answers.
import type { RuntimeConfig } from './runtime-config';

/** Names of the federated remotes; also their Module Federation container names */
export const REMOTE_NAMES = ['dashboard', 'bots', 'exchange_connect', 'account'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** A shared-runtime range as config.json states it: `^1.2.3`, `~1.2.3` or `1.2.3` */
export const SHARED_RUNTIME_RANGE = /^[\^~]?\d+\.\d+\.\d+$/;
export const SHARED_RUNTIME_RANGE_RULE = 'a range reads ^1.2.3, ~1.2.3 or 1.2.3';
/** Milliseconds a remote may take to load before its slot shows the fallback, when config.json says nothing */
export const DEFAULT_REMOTE_LOAD_TIMEOUT_MS = 10_000;

export type RuntimeConfigReading =
  | { success: true; data: RuntimeConfig }
  | { success: false; issues: string[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRemoteName(key: string): key is RemoteName {
  return (REMOTE_NAMES as readonly string[]).includes(key);
}

/**
 * A URL as zod's `z.url()` takes it: trimmed, parseable by the URL parser, tabs and line feeds dropped (the parser
 * drops them too); `protocol` tests the scheme without its colon
 */
function readUrl(value: unknown, protocol?: RegExp): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (protocol && !protocol.test(url.protocol.replace(/:$/, ''))) return undefined;
  return trimmed.replace(/[\t\n\r]/g, '');
}

/**
 * Reads the shell's `config.json` with the rules of `RuntimeConfigSchema`: both URLs, every remote's manifest URL,
 * optional shared-runtime ranges per remote, the load timeout (10 s unless given), and no other field. Each broken
 * rule is one issue, `path: what is wrong`.
 */
export function readRuntimeConfig(input: unknown): RuntimeConfigReading {
  if (!isRecord(input)) return { success: false, issues: ['(root): expected an object'] };
  const issues: string[] = [];
  const known = new Set([
    'apiBaseUrl',
    'socketBaseUrl',
    'remotes',
    'sharedRuntimeRanges',
    'remoteLoadTimeoutMs',
  ]);
  for (const key of Object.keys(input)) {
    if (!known.has(key)) issues.push(`${key}: unrecognized key`);
  }

  const apiBaseUrl = readUrl(input.apiBaseUrl);
  if (apiBaseUrl === undefined) issues.push('apiBaseUrl: expected a URL');
  const socketBaseUrl = readUrl(input.socketBaseUrl, /^wss?$/);
  if (socketBaseUrl === undefined) issues.push('socketBaseUrl: expected a ws:// or wss:// URL');

  const remotes: Partial<Record<RemoteName, string>> = {};
  if (!isRecord(input.remotes)) issues.push('remotes: expected an object');
  else {
    for (const [name, value] of Object.entries(input.remotes)) {
      if (!isRemoteName(name)) issues.push(`remotes.${name}: not a remote (${REMOTE_NAMES.join(', ')})`);
      else {
        const url = readUrl(value);
        if (url === undefined) issues.push(`remotes.${name}: expected a URL`);
        else remotes[name] = url;
      }
    }
    for (const name of REMOTE_NAMES) {
      if (!(name in input.remotes)) issues.push(`remotes.${name}: missing`);
    }
  }

  const sharedRuntimeRanges: Partial<Record<RemoteName, string>> = {};
  if (input.sharedRuntimeRanges !== undefined) {
    if (!isRecord(input.sharedRuntimeRanges)) issues.push('sharedRuntimeRanges: expected an object');
    else {
      for (const [name, range] of Object.entries(input.sharedRuntimeRanges)) {
        if (!isRemoteName(name)) issues.push(`sharedRuntimeRanges.${name}: not a remote`);
        else if (typeof range !== 'string' || !SHARED_RUNTIME_RANGE.test(range)) {
          issues.push(`sharedRuntimeRanges.${name}: ${SHARED_RUNTIME_RANGE_RULE}`);
        } else sharedRuntimeRanges[name] = range;
      }
    }
  }

  const timeout =
    input.remoteLoadTimeoutMs === undefined ? DEFAULT_REMOTE_LOAD_TIMEOUT_MS : input.remoteLoadTimeoutMs;
  if (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout <= 0) {
    issues.push('remoteLoadTimeoutMs: expected a positive whole number of milliseconds');
  }

  if (issues.length > 0 || apiBaseUrl === undefined || socketBaseUrl === undefined) {
    return { success: false, issues };
  }
  return {
    success: true,
    data: {
      apiBaseUrl,
      socketBaseUrl,
      remotes: remotes as Record<RemoteName, string>,
      sharedRuntimeRanges,
      remoteLoadTimeoutMs: timeout as number,
    },
  };
}
