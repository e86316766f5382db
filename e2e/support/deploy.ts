import { join } from 'node:path';

/**
 * The deployment file `scripts/start.mjs` reads on every request for config.json (KESTREL_REMOTES_FILE): remote
 * name → its mf-manifest.json URL. Writing it is deploying (or rolling back) a remote, with no shell rebuild.
 */
export const E2E_REMOTES_FILE = join(import.meta.dirname, '../../.data/e2e/remotes.json');
