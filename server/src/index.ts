// What other workspace packages (bench, e2e) may use to run the server in-process
export { type AppDeps, BODY_LIMIT_BYTES, buildApp } from './app';
export { loadConfig, type ServerConfig } from './config';
export { generateMasterKey, type Keyring, type MasterKey, makeKeyring } from './lib/crypto/master-key';
export type { Database, Queryable } from './lib/database/database';
export { openPgliteDatabase } from './lib/database/pglite-database';
export { openPostgresDatabase } from './lib/database/postgres-database';
// The app's decorations (app.db, app.socketBus, app.liveStreams…) are declared by its plugins, which only the
// autoloader imports: naming them here carries those declarations to the packages that read the server's types
export type {} from './plugins/app/auth/index';
export type {} from './plugins/app/backtest/index';
export type { ExchangeCredentials, ExchangeProbe } from './plugins/app/credentials/exchange-probe';
export { ExchangeRejectedError, ExchangeUnreachableError } from './plugins/app/credentials/exchange-probe';
export type {} from './plugins/app/credentials/index';
export type {} from './plugins/app/database/index';
export { BinanceUsdmAdapter } from './plugins/app/exchange/binance-adapter';
export type { ExchangeAdapter, ExchangeKeys, NewOrder, Order } from './plugins/app/exchange/exchange-adapter';
export type {} from './plugins/app/exchange/index';
export type {} from './plugins/app/live/index';
export type {} from './plugins/app/secrets/index';
export type {} from './plugins/app/socket/index';
