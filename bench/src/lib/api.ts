import { buildApp, type Database, generateMasterKey, loadConfig, makeKeyring } from '@kestrel/server';

/** What a bench's API needs when no exchange is involved: no sign-up limit, an exchange URL nothing listens on */
export const NO_EXCHANGE_ENV = {
  KESTREL_SIGNUPS_PER_IP_HOUR: '100000',
  KESTREL_EXCHANGE_BASE_URL: 'http://127.0.0.1:9',
};

/**
 * The real API on `database` with fresh keyrings, configured only by `env` (logs silent unless it says otherwise),
 * so a bench measures the product, not a stand-in
 */
export function benchApi(database: Database, env: Record<string, string>) {
  return buildApp(loadConfig({ KESTREL_LOG_LEVEL: 'silent', ...env }), {
    database,
    keyring: makeKeyring([generateMasterKey()]),
    tokenKeyring: makeKeyring([generateMasterKey()]),
  });
}
