// What other workspace packages (bench, e2e) may use to run the server in-process
export { type AppDeps, BODY_LIMIT_BYTES, buildApp } from './app';
export { loadConfig, type ServerConfig } from './config';
export { generateMasterKey, type Keyring, type MasterKey, makeKeyring } from './lib/crypto/master-key';
export type { Database, Queryable } from './lib/database/database';
export { openPgliteDatabase } from './lib/database/pglite-database';
export { openPostgresDatabase } from './lib/database/postgres-database';
export type { ExchangeCredentials, ExchangeProbe } from './plugins/app/credentials/exchange-probe';
export { ExchangeRejectedError, ExchangeUnreachableError } from './plugins/app/credentials/exchange-probe';
export { BinanceUsdmAdapter } from './plugins/app/exchange/binance-adapter';
export type { ExchangeAdapter, ExchangeKeys, NewOrder, Order } from './plugins/app/exchange/exchange-adapter';
