import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerConfig } from '../config';
import { credentialsRepository } from '../core/credentials/credentials-repository';
import { CredentialsService } from '../core/credentials/credentials-service';
import { unavailableExchangeProbe } from '../core/credentials/exchange-probe';
import { NotificationService } from '../core/notifications/notification-service';
import { notificationsRepository } from '../core/notifications/notifications-repository';
import type { Clock } from '../lib/clock';
import { systemClock } from '../lib/clock';
import {
  encodeMasterKey,
  generateMasterKey,
  loadVaultKeys,
  type MasterKey,
  makeKeyring,
  parseMasterKey,
} from '../lib/crypto/master-key';
import type { Database } from '../lib/database/database';
import { migrate } from '../lib/database/migrate';
import { openDatabase } from '../lib/database/open-database';
import { LlmService } from '../trading/agents/llm-reviewer/llm-service';
import { rewrapSignalSecrets } from '../trading/bots/signals/signal-service';

export interface RotationResult {
  rewrapped: number;
  fromKeyId: string;
  toKeyId: string;
  /** What the operator must do next; never contains a key */
  instructions: string;
}

export interface RotationOptions {
  config: ServerConfig;
  /** Required when the key comes from KESTREL_MASTER_KEY: the new key, base64 of 32 bytes */
  newMasterKey?: string | undefined;
  /** An already open database (tests); otherwise opened from the configuration and closed after */
  database?: Database;
  clock?: Clock;
}

/**
 * Re-wraps every credential's, webhook secret's, agent LLM key's and signal secret's data key under a new master key, in one transaction. Embedded mode: the new key is
 * generated into `master.key.next` first (so a crash midway leaves both keys readable), then renamed over
 * `master.key`. Environment mode: the operator supplies the new key and then swaps KESTREL_MASTER_KEY.
 */
export async function rotateMasterKey(options: RotationOptions): Promise<RotationResult> {
  const { config } = options;
  const { keyring, files } = await loadVaultKeys(config);
  const fromEnv = files === null;
  let next: MasterKey;
  if (fromEnv) {
    if (!options.newMasterKey) {
      throw new Error('KESTREL_MASTER_KEY is set, so the new key must be given in KESTREL_NEW_MASTER_KEY');
    }
    next = parseMasterKey(options.newMasterKey, 'KESTREL_NEW_MASTER_KEY');
  } else {
    next = generateMasterKey();
    await writeFile(join(files.dir, files.next), `${encodeMasterKey(next)}\n`, { mode: 0o600 });
  }
  if (next.id === keyring.current.id) throw new Error('The new master key is the current one');

  const db = options.database ?? (await openDatabase(config));
  try {
    await migrate(db);
    const both = makeKeyring([...keyring.all, next]);
    const clock = options.clock ?? systemClock;
    // Rotation re-wraps every row whatever its environment; nothing here asks which one is current
    const service = new CredentialsService(db, credentialsRepository, both, unavailableExchangeProbe, clock, {
      assertConfigured: () => {},
    });
    const webhooks = new NotificationService(db, notificationsRepository, both, clock, async () => {}, {
      targets: { allowPrivate: false },
    });
    // Only re-wraps stored keys: it never reviews, so it needs no agent owner check
    const llmKeys = new LlmService(db, both, clock, async () => {}, { allowPrivate: false });
    // Exchange keys, webhook secrets, agents' LLM keys and bots' signal secrets in one transaction: either all rows open with the new
    // key, or none moved
    const rewrapped = await db.transaction(
      async (tx) =>
        (await service.rotateMasterKey(next, tx)) +
        (await webhooks.rotateMasterKey(tx, next)) +
        (await llmKeys.rotateMasterKey(tx, next)) +
        (await rewrapSignalSecrets(tx, both, next)),
    );
    if (files) await rename(join(files.dir, files.next), join(files.dir, files.current));
    return {
      rewrapped,
      fromKeyId: keyring.current.id,
      toKeyId: next.id,
      instructions: fromEnv
        ? 'Set KESTREL_MASTER_KEY to the new key and restart every server instance. Until all have restarted, ' +
          'list it as "<new>,<old>" so that instances still holding the old key keep working.'
        : `The new key replaced ${join(files.dir, files.current)}; restart the server.`,
    };
  } catch (err) {
    // The transaction rolled back: rows still open with the old key, so the unused next key can go
    if (files) await rm(join(files.dir, files.next), { force: true });
    throw err;
  } finally {
    if (!options.database) await db.close();
  }
}
