// The MF runtime core as a page global, where a remote built with `externalRuntime` looks for it: on a remote's
// standalone page, which has no shell to provide it (see `standaloneRuntimeCore` in index.mjs)
import * as runtimeCore from '@kestrel/federation/runtime-core';

globalThis._FEDERATION_RUNTIME_CORE = runtimeCore;
