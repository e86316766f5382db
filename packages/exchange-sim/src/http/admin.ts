import { ManualClock } from '../common/clock';
import { Decimal } from '../common/format';
import type { Exchange } from '../matching/exchange';
import { type PriceCommand, PriceCommandError, type PriceControlState } from '../matching/price-control';
import type { Account, KeyPermissions } from '../matching/types';
import type { FaultInput, Faults } from './faults';

/** Prefix of the admin API; nothing Binance serves lives under it */
export const ADMIN_PREFIX = '/_sim';

export interface AdminDeps {
  exchange: Exchange;
  faults: Faults;
  dropSockets: () => number;
  /** Every API key the simulator was sent (`SimServer.apiKeysSeen`) */
  apiKeysSeen?: ReadonlySet<string>;
}

export interface AdminReply {
  status: number;
  body: unknown;
}

class AdminError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AdminError(400, 'The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function optionalString(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new AdminError(400, `"${key}" must be a string`);
  return v;
}

const PERMISSION_KEYS: readonly (keyof KeyPermissions)[] = [
  'ipRestrict',
  'enableReading',
  'enableWithdrawals',
  'enableInternalTransfer',
  'permitsUniversalTransfer',
  'enableVanillaOptions',
  'enableFutures',
  'enableMargin',
  'enableSpotAndMarginTrading',
  'enableFixApiTrade',
  'enableFixReadOnly',
];

function permissions(raw: unknown): Partial<KeyPermissions> | undefined {
  if (raw === undefined) return undefined;
  const o = objectBody(raw);
  const out: Partial<KeyPermissions> = {};
  for (const [k, v] of Object.entries(o)) {
    if (!(PERMISSION_KEYS as readonly string[]).includes(k)) {
      throw new AdminError(400, `Unknown permission "${k}"; known: ${PERMISSION_KEYS.join(', ')}`);
    }
    if (typeof v !== 'boolean') throw new AdminError(400, `Permission "${k}" must be true or false`);
    out[k as keyof KeyPermissions] = v;
  }
  return out;
}

function accountView(a: Account, withSecret: boolean) {
  return {
    accountId: a.id,
    apiKey: a.apiKey,
    ...(withSecret && !a.publicKey ? { secretKey: a.secretKey } : {}),
    keyType: a.publicKey ? 'ASYMMETRIC' : 'HMAC',
    dualSidePosition: a.dualSidePosition,
    permissions: a.permissions,
    balances: Object.fromEntries([...a.balances].map(([k, v]) => [k, v.toFixed()])),
  };
}

function accountFor(deps: AdminDeps, id: string | undefined): Account {
  const account = deps.exchange.account(Number(id));
  if (!account) throw new AdminError(404, `No simulator account with id ${id}`);
  return account;
}

function priceView(exchange: Exchange, state: PriceControlState) {
  const pp = exchange.market(state.symbol).spec.pricePrecision;
  return {
    symbol: state.symbol,
    mode: state.mode,
    lastPrice: state.lastPrice.toFixed(pp),
    markPrice: state.markPrice.toFixed(8),
    indexPrice: state.indexPrice.toFixed(8),
    ...(state.target !== undefined ? { target: state.target.toFixed(pp) } : {}),
    ...(state.until !== undefined ? { until: state.until } : {}),
    time: state.time,
  };
}

/** `GET /prices`, and `GET|POST|DELETE /prices/:symbol`: reading, setting and releasing a symbol's price */
function prices(deps: AdminDeps, method: string, parts: string[], body: Record<string, unknown>): AdminReply {
  const { exchange } = deps;
  if (parts.length === 1 && method === 'GET') {
    return {
      status: 200,
      body: [...exchange.markets.keys()].map((s) => priceView(exchange, exchange.priceControl(s))),
    };
  }
  const symbol = (parts[1] ?? '').toUpperCase();
  if (parts.length !== 2 || !['GET', 'POST', 'DELETE'].includes(method)) {
    throw new AdminError(404, `No admin route ${method} /${parts.join('/')}`);
  }
  if (!exchange.hasSymbol(symbol)) {
    throw new AdminError(
      404,
      `No symbol ${symbol} on the simulator; listed: ${[...exchange.markets.keys()].join(', ')}`,
    );
  }
  if (method === 'GET') return { status: 200, body: priceView(exchange, exchange.priceControl(symbol)) };
  if (method === 'DELETE') return { status: 200, body: priceView(exchange, exchange.releasePrice(symbol)) };
  try {
    return {
      status: 200,
      body: priceView(exchange, exchange.setPrice(symbol, body as unknown as PriceCommand)),
    };
  } catch (e) {
    if (e instanceof PriceCommandError) throw new AdminError(400, e.message);
    throw e;
  }
}

/**
 * The simulator's own API (JSON in, JSON out): accounts with keys, balances and key permissions; fault injection;
 * dropping sockets; moving a manual clock; setting, driving and releasing prices. Errors are `{ "error": "…" }` with 400/404/409.
 */
export function handleAdmin(deps: AdminDeps, method: string, path: string, body: unknown): AdminReply {
  try {
    const parts = path.slice(ADMIN_PREFIX.length).split('/').filter(Boolean);
    const route = `${method} /${parts.map((p, i) => (i === 1 && /^\d+$/.test(p) ? ':id' : p)).join('/')}`;
    const o = objectBody(body);
    if (parts[0] === 'prices') return prices(deps, method, parts, o);
    switch (route) {
      case 'GET /health':
        return { status: 200, body: { ok: true, time: deps.exchange.clock.now() } };
      case 'GET /api-keys-seen':
        return { status: 200, body: { apiKeys: [...(deps.apiKeysSeen ?? [])] } };
      case 'POST /accounts': {
        const balances = o.balances === undefined ? undefined : objectBody(o.balances);
        for (const [k, v] of Object.entries(balances ?? {})) {
          if (typeof v !== 'string') throw new AdminError(400, `Balance of ${k} must be a decimal string`);
        }
        if (o.dualSidePosition !== undefined && typeof o.dualSidePosition !== 'boolean') {
          throw new AdminError(400, '"dualSidePosition" must be true or false');
        }
        try {
          const account = deps.exchange.createAccount({
            apiKey: optionalString(o, 'apiKey'),
            secretKey: optionalString(o, 'secretKey'),
            publicKey: optionalString(o, 'publicKey'),
            balances: balances as Record<string, string> | undefined,
            permissions: permissions(o.permissions),
            dualSidePosition: o.dualSidePosition as boolean | undefined,
            makerRate: optionalString(o, 'makerRate'),
            takerRate: optionalString(o, 'takerRate'),
          });
          return { status: 201, body: accountView(account, true) };
        } catch (e) {
          if (e instanceof AdminError) throw e;
          throw new AdminError(400, e instanceof Error ? e.message : String(e));
        }
      }
      case 'GET /accounts/:id':
        return { status: 200, body: accountView(accountFor(deps, parts[1]), false) };
      case 'PATCH /accounts/:id/permissions': {
        const account = accountFor(deps, parts[1]);
        Object.assign(account.permissions, permissions(o));
        return { status: 200, body: accountView(account, false) };
      }
      case 'POST /accounts/:id/transfer': {
        const account = accountFor(deps, parts[1]);
        const asset = optionalString(o, 'asset') ?? 'USDT';
        const amount = optionalString(o, 'amount');
        if (!amount || !/^-?\d+(\.\d+)?$/.test(amount)) {
          throw new AdminError(400, '"amount" must be a decimal string, negative to withdraw');
        }
        try {
          deps.exchange.transfer(account, asset, new Decimal(amount));
        } catch (e) {
          throw new AdminError(409, e instanceof Error ? e.message : String(e));
        }
        return { status: 200, body: accountView(account, false) };
      }
      case 'GET /faults':
        return { status: 200, body: deps.faults.list() };
      case 'POST /faults':
        try {
          return { status: 201, body: deps.faults.add(o as unknown as FaultInput) };
        } catch (e) {
          throw new AdminError(400, e instanceof Error ? e.message : String(e));
        }
      case 'DELETE /faults':
        deps.faults.clear();
        return { status: 200, body: { cleared: true } };
      case 'DELETE /faults/:id':
        if (!deps.faults.remove(Number(parts[1]))) throw new AdminError(404, `No fault with id ${parts[1]}`);
        return { status: 200, body: { removed: Number(parts[1]) } };
      case 'POST /ws/drop':
        return { status: 200, body: { dropped: deps.dropSockets() } };
      case 'POST /clock/advance': {
        const clock = deps.exchange.clock;
        if (!(clock instanceof ManualClock)) {
          throw new AdminError(409, 'The simulator runs on real time; only a manual clock can be advanced');
        }
        const ms = o.ms;
        if (typeof ms !== 'number' || !(ms >= 0))
          throw new AdminError(400, '"ms" must be a number of ms ≥ 0');
        clock.advance(ms);
        deps.exchange.sync();
        return { status: 200, body: { time: clock.now() } };
      }
      default:
        throw new AdminError(404, `No admin route ${method} ${path}`);
    }
  } catch (e) {
    if (e instanceof AdminError) return { status: e.status, body: { error: e.message } };
    throw e;
  }
}
