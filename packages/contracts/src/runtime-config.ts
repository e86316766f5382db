import { z } from 'zod';
import {
  DEFAULT_REMOTE_LOAD_TIMEOUT_MS,
  REMOTE_NAMES,
  SHARED_RUNTIME_RANGE,
  SHARED_RUNTIME_RANGE_RULE,
} from './runtime-config-read';

export const RemoteNameSchema = z.enum(REMOTE_NAMES);

/**
 * The shell's `config.json`, fetched at start, so that one build runs in any environment and a remote can be
 * redeployed (or moved) without rebuilding the shell.
 */
export const RuntimeConfigSchema = z
  .object({
    /** Base URL of the REST API, e.g. `http://127.0.0.1:8000` */
    apiBaseUrl: z.url(),
    /** Base URL of the live socket, e.g. `ws://127.0.0.1:8000/ws` */
    socketBaseUrl: z.url({ protocol: /^wss?$/ }),
    /** Remote name → URL of its `mf-manifest.json` */
    remotes: z.record(RemoteNameSchema, z.url()),
    /**
     * Remote name → the @kestrel/shared-runtime versions its build must have been made against (`^0.2.0`, `~0.2.1`
     * or `0.2.1`), as the deployer states them; a remote without one must match the page's own runtime (`^` of it).
     * A remote built against another runtime is not started: its slot says why, and no second runtime runs.
     */
    sharedRuntimeRanges: z
      .partialRecord(RemoteNameSchema, z.string().regex(SHARED_RUNTIME_RANGE, SHARED_RUNTIME_RANGE_RULE))
      .default({}),
    /** Milliseconds a remote may take to load before its slot shows the fallback */
    remoteLoadTimeoutMs: z.number().int().positive().default(DEFAULT_REMOTE_LOAD_TIMEOUT_MS),
  })
  .strict();
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;
export type RuntimeConfigInput = z.input<typeof RuntimeConfigSchema>;

/**
 * `build-info.json`, which every app's build writes beside its entry files (@kestrel/federation): what a deployed
 * build is, for the platform view
 */
export const BuildInfoSchema = z.object({
  /** `shell` or the remote's container name */
  app: z.string(),
  /** The app's package version */
  version: z.string(),
  /** The @kestrel/shared-runtime version the app was built against (null: the app does not use it) */
  sharedRuntime: z.string().nullable(),
  /** Short git commit of the build; null when built outside git */
  commit: z.string().nullable(),
  builtAt: z.iso.datetime(),
  /** A name the deployer gave the build (`KESTREL_BUILD_LABEL`, e.g. a canary) */
  label: z.string().nullable(),
});
export type BuildInfo = z.infer<typeof BuildInfoSchema>;
