import { getRuntimeConfig } from '@kestrel/shared-runtime';

type Federation = typeof import('@kestrel/shared-runtime/federation');

let federation: Promise<Federation> | undefined;

/**
 * The runtime's remote loading with the page's remotes registered (from config.json, which bootstrap has loaded by
 * then), loaded on first use: the landing page shows no remote, so a visitor who only reads it or signs in does not
 * load it. The router's app, a deep link's preload and the signed-in preload ask for it before any remote loads.
 */
export function remotesReady(): Promise<Federation> {
  federation ??= import('@kestrel/shared-runtime/federation').then((loaded) => {
    loaded.registerRemotesFromConfig(getRuntimeConfig());
    return loaded;
  });
  return federation;
}
