import { join } from 'node:path';
import { E2E_DATA_DIR } from './ports';

/**
 * The deployment file `scripts/start.mjs` reads on every request for config.json (KESTREL_REMOTES_FILE): remote
 * name → its mf-manifest.json URL. Writing it is deploying (or rolling back) a remote, with no shell rebuild.
 */
export const E2E_REMOTES_FILE = join(E2E_DATA_DIR, 'remotes.json');
