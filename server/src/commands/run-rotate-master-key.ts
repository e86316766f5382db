/**
 * `pnpm --filter @kestrel/server rotate-master-key`: same environment as the server (KESTREL_DATA_DIR,
 * DATABASE_URL, KESTREL_MASTER_KEY) plus KESTREL_NEW_MASTER_KEY when the key comes from the environment.
 * Stop the server first when it runs on the embedded database (PGlite allows one process per data folder).
 */
import { loadConfig } from '../config';
import { rotateMasterKey } from './rotate-master-key';

try {
  const result = await rotateMasterKey({
    config: loadConfig(),
    newMasterKey: process.env.KESTREL_NEW_MASTER_KEY,
  });
  console.info(
    `Re-wrapped ${result.rewrapped} credential(s): master key ${result.fromKeyId} -> ${result.toKeyId}.\n${result.instructions}`,
  );
} catch (err) {
  console.error(`Master-key rotation failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
