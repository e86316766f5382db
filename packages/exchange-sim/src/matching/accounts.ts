import { createPublicKey } from 'node:crypto';
import { Decimal } from '../common/format';
import { randomAlphanumeric } from '../common/secrets';
import { income } from './ledger';
import type { ExchangeState } from './state';
import type { Account, KeyPermissions } from './types';

/** Accounts: opening one (keys, permissions, starting balances) and admin transfers in and out */

export interface CreateAccountInput {
  apiKey?: string;
  secretKey?: string;
  /** PEM public key of an RSA or Ed25519 API key (instead of an HMAC secret) */
  publicKey?: string;
  balances?: Record<string, string>;
  permissions?: Partial<KeyPermissions>;
  dualSidePosition?: boolean;
  makerRate?: string;
  takerRate?: string;
  /** BNB fee discount on from the start (Binance's default is off) */
  feeBurn?: boolean;
}

/** What a new API key may do unless the admin API says otherwise: read and trade futures */
export const DEFAULT_PERMISSIONS: KeyPermissions = {
  ipRestrict: false,
  enableReading: true,
  enableWithdrawals: false,
  enableInternalTransfer: false,
  permitsUniversalTransfer: false,
  enableVanillaOptions: false,
  enableFutures: true,
  enableMargin: false,
  enableSpotAndMarginTrading: false,
  enableFixApiTrade: false,
  enableFixReadOnly: false,
};

/** Binance takes RSA (PKCS#8 / SPKI PEM) and Ed25519 public keys for API keys */
function checkPublicKey(pem: string): void {
  let type: string | undefined;
  try {
    type = createPublicKey(pem).asymmetricKeyType;
  } catch {
    throw new Error('publicKey must be a PEM public key (-----BEGIN PUBLIC KEY-----)');
  }
  if (type !== 'rsa' && type !== 'ed25519') throw new Error(`publicKey must be RSA or Ed25519, got ${type}`);
}

/**
 * Opens an account with its API key (HMAC secret or RSA/Ed25519 public key) and starting balances (default 10,000
 * USDT), each booked as TRANSFER income; throws an Error naming the bad field
 */
export function createAccount(s: ExchangeState, input: CreateAccountInput = {}): Account {
  const id = s.nextAccountId++;
  const apiKey = input.apiKey ?? randomAlphanumeric(64);
  const secretKey = input.secretKey ?? randomAlphanumeric(64);
  if (!/^[A-Za-z0-9]{16,128}$/.test(apiKey)) {
    throw new Error('apiKey must be 16 to 128 letters or digits, as Binance keys are');
  }
  if (secretKey.length < 16) throw new Error('secretKey must be at least 16 characters');
  if (input.publicKey !== undefined) checkPublicKey(input.publicKey);
  if (s.byKey.has(apiKey)) throw new Error('An account with this apiKey already exists');
  const balances = new Map<string, Decimal>();
  for (const [asset, amount] of Object.entries(input.balances ?? { USDT: '10000' })) {
    if (!/^[A-Z0-9]{2,10}$/.test(asset)) throw new Error(`Balance asset "${asset}" is not an asset name`);
    let value: Decimal;
    try {
      value = new Decimal(amount);
    } catch {
      throw new Error(`Balance of ${asset} must be a decimal string, got "${amount}"`);
    }
    if (value.isNeg() || !value.isFinite()) throw new Error(`Balance of ${asset} must be 0 or more`);
    balances.set(asset, value);
  }
  if (!balances.has('USDT')) balances.set('USDT', new Decimal(0));
  const now = s.clock.now();
  const account: Account = {
    id,
    apiKey,
    secretKey,
    publicKey: input.publicKey,
    permissions: { ...DEFAULT_PERMISSIONS, ...input.permissions },
    createTime: now,
    dualSidePosition: input.dualSidePosition ?? false,
    balances,
    makerRate: new Decimal(input.makerRate ?? s.makerRate),
    takerRate: new Decimal(input.takerRate ?? s.takerRate),
    feeBurn: input.feeBurn ?? false,
    configs: new Map(),
    positions: new Map(),
    orders: new Map(),
    openOrders: new Map(),
    algoOrders: new Map(),
    trades: [],
    income: [],
    updateTime: now,
  };
  for (const [asset, amount] of balances) {
    if (amount.gt(0)) income(s, account, '', 'TRANSFER', amount, 'TRANSFER', asset);
  }
  s.accounts.set(id, account);
  s.byKey.set(apiKey, account);
  return account;
}

/** Applies a deposit or withdrawal from the admin API, booked as TRANSFER income */
export function transfer(s: ExchangeState, account: Account, asset: string, amount: Decimal): void {
  const next = (account.balances.get(asset) ?? new Decimal(0)).plus(amount);
  if (next.isNeg()) throw new Error(`Transfer would leave ${asset} negative`);
  account.balances.set(asset, next);
  s.version++;
  income(s, account, '', 'TRANSFER', amount, 'TRANSFER', asset);
}
