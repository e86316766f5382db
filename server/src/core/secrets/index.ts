import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Keyring, loadTokenKeys, loadVaultKeys } from '../../lib/crypto/master-key';
import type { PluginOptions } from '../plugin-options';

declare module 'fastify' {
  interface FastifyInstance {
    /** The vault's keys: they wrap the stored exchange secrets */
    keyring: Keyring;
    /** The access- and refresh-token signing keys, separate from the vault's */
    tokenKeyring: Keyring;
  }
}

/**
 * The two keyrings: the vault's (KESTREL_MASTER_KEY, else `vault.key` in the keys folder) and the tokens'
 * (KESTREL_TOKEN_KEY, else `token.key`), each generated once (0600) outside the data folder
 */
export default fp(
  async (app: FastifyInstance, { config, deps }: PluginOptions) => {
    const vault = deps.keyring ? null : await loadVaultKeys(config);
    const tokens = deps.tokenKeyring ? null : await loadTokenKeys(config);
    for (const warning of [...(vault?.warnings ?? []), ...(tokens?.warnings ?? [])]) app.log.warn(warning);
    const keyring = deps.keyring ?? (vault as NonNullable<typeof vault>).keyring;
    const tokenKeyring = deps.tokenKeyring ?? (tokens as NonNullable<typeof tokens>).keyring;
    // The ids name the keys in logs without revealing them
    app.log.info({ vault_key_id: keyring.current.id, token_key_id: tokenKeyring.current.id }, 'keys loaded');
    app.decorate('keyring', keyring);
    app.decorate('tokenKeyring', tokenKeyring);
  },
  { name: 'secrets' },
);
