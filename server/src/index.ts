// What other workspace packages (bench, e2e) may use to run the server in-process
export { type AppDeps, BODY_LIMIT_BYTES, buildApp } from './app';
export { loadConfig, type ServerConfig } from './config';
// The app's decorations (app.db, app.socketBus, app.liveStreams…) are declared by its plugins, which only the
// autoloader imports: naming them here carries those declarations to the packages that read the server's types
export type {} from './core/auth/index';
export type { ExchangeCredentials, ExchangeProbe } from './core/credentials/exchange-probe';
export { ExchangeRejectedError, ExchangeUnreachableError } from './core/credentials/exchange-probe';
export type {} from './core/credentials/index';
export type {} from './core/database/index';
export { BinanceUsdmAdapter } from './core/exchange/binance-adapter';
export type { ExchangeAdapter, ExchangeKeys, NewOrder, Order } from './core/exchange/exchange-adapter';
export type {} from './core/exchange/index';
export type {} from './core/live/index';
export type {} from './core/secrets/index';
export type {} from './core/socket/index';
export { generateMasterKey, type Keyring, type MasterKey, makeKeyring } from './lib/crypto/master-key';
export type { Database, Queryable } from './lib/database/database';
export { openPgliteDatabase } from './lib/database/pglite-database';
export { openPostgresDatabase } from './lib/database/postgres-database';
export type {} from './trading/backtest/index';
