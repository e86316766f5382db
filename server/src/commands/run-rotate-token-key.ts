/**
 * `pnpm --filter @kestrel/server rotate-token-key`: a new token-signing key in the keys folder (KESTREL_KEYS_DIR).
 * Tokens signed with the previous key stay valid until they expire or the next rotation; the one before is
 * retired, so every session still signed with it must sign in again. Restart every server instance afterwards.
 * With KESTREL_TOKEN_KEY set, rotate by setting it to "<new>,<old>" (and later to "<new>") instead.
 */
import { loadConfig } from '../config';
import { rotateTokenKeyFile } from '../lib/crypto/master-key';

try {
  const config = loadConfig();
  if (config.tokenKey) {
    throw new Error(
      'KESTREL_TOKEN_KEY is set: put the new key first in it ("<new>,<old>") and restart every instance instead',
    );
  }
  const { fromKeyId, toKeyId } = await rotateTokenKeyFile(config.keysDir);
  console.info(`Token key ${fromKeyId} -> ${toKeyId}; restart every server instance.`);
} catch (err) {
  console.error(`Token-key rotation failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
