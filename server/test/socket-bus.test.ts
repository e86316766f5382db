import type { AccountTestResult } from '@kestrel/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExchangeCredentials, ExchangeProbe } from '../src/core/credentials/exchange-probe';
import { SESSION_RECHECK_MS } from '../src/core/socket';
import { CHUNK_CHARS } from '../src/core/socket/pg-fanout';
import { InvalidLiveEventError } from '../src/core/socket/socket-bus';
import { ManualClock } from '../src/lib/clock';
import { CLOSE_CODES } from '../src/routes/ws';
import { bearer, buildTestApp, openTestDatabase, signUp, type TestApp, type TestDatabase } from './helper';
import { listenWs, TestSocket, wsUrl } from './socket-helper';

const ACCOUNT: AccountTestResult = {
  accountType: 'USDT_FUTURES',
  totalWalletBalance: '1234.50',
  totalUnrealizedProfit: '0',
  totalMarginBalance: '1234.50',
  canTrade: true,
  canWithdraw: false,
  canDeposit: false,
  assetsCount: 1,
  positionsCount: 0,
};

/** Stands in for the exchange at the adapter seam: answers for one known key pair, refuses the rest */
class RecordingProbe implements ExchangeProbe {
  readonly calls: ExchangeCredentials[] = [];
  constructor(private readonly known?: { apiKey: string; secretKey: string }) {}
  async testAccount(_exchange: 'binance', credentials: ExchangeCredentials): Promise<AccountTestResult> {
    this.calls.push(credentials);
    if (!this.known) {
      const { ExchangeUnreachableError } = await import('../src/core/credentials/exchange-probe');
      throw new ExchangeUnreachableError('no exchange adapter is configured on this server yet');
    }
    if (credentials.apiKey !== this.known.apiKey || credentials.secretKey !== this.known.secretKey) {
      const { ExchangeRejectedError } = await import('../src/core/credentials/exchange-probe');
      throw new ExchangeRejectedError('Invalid API-key, IP, or permissions for action.');
    }
    return ACCOUNT;
  }
}

const KEY = 'k'.repeat(64);
const SECRET = 's'.repeat(64);

describe('live socket (PGlite)', () => {
  let tdb: TestDatabase;
  let t: TestApp;
  let base: string;
  const probe = new RecordingProbe({ apiKey: KEY, secretKey: SECRET });
  const sockets: TestSocket[] = [];
  /** An authenticated socket: the first reply proves the server has checked the token and registered it */
  const open = async (token: string, clientId?: string) => {
    const s = await TestSocket.open(wsUrl(base, token, clientId));
    sockets.push(s);
    await s.request('tools/list');
    return s;
  };

  beforeAll(async () => {
    tdb = await openTestDatabase('pglite');
    t = await buildTestApp(tdb.db, { exchange: probe });
    base = await listenWs(t);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await t.app.close();
    await tdb.cleanup();
  });

  describe('authentication', () => {
    it('closes with 4401 and a clear reason when the token is missing, forged, expired or its session ended', async () => {
      const noToken = await TestSocket.open(`${base}/client-a`);
      expect(await noToken.closed).toEqual({
        code: CLOSE_CODES.unauthorized,
        reason: 'Not authenticated: pass the access token as the token query parameter',
      });
      const forged = await TestSocket.open(wsUrl(base, 'a.b.c'));
      expect(await forged.closed).toEqual({
        code: CLOSE_CODES.unauthorized,
        reason: 'Access token is invalid. Please sign in again.',
      });

      const user = await signUp(t);
      t.clock.advance(16 * 60 * 1000);
      const expired = await TestSocket.open(wsUrl(base, user.access_token));
      expect(await expired.closed).toEqual({
        code: CLOSE_CODES.unauthorized,
        reason: 'Authentication expired. Please sign in again.',
      });

      const other = await signUp(t);
      const logout = await t.request({
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: bearer(other.access_token),
      });
      expect(logout.statusCode).toBeLessThan(300);
      const ended = await TestSocket.open(wsUrl(base, other.access_token));
      expect(await ended.closed).toEqual({
        code: CLOSE_CODES.unauthorized,
        reason: 'Session has ended. Please sign in again.',
      });
    });

    it('refuses a client id outside the allowed characters', async () => {
      const user = await signUp(t);
      const bad = await TestSocket.open(wsUrl(base, user.access_token, 'bad%20id'));
      expect((await bad.closed).code).toBe(CLOSE_CODES.badClientId);
    });

    it('never writes the access token into a log line', async () => {
      const user = await signUp(t);
      await open(user.access_token);
      expect(t.logs.join('\n')).not.toContain(user.access_token);
      expect(t.logs.join('\n')).toContain('token=[redacted]');
    });
  });

  describe('tools', () => {
    it('lists the tools with their argument schemas', async () => {
      const s = await open((await signUp(t)).access_token);
      const reply = await s.request('tools/list');
      const tools = (reply.result as { tools: { name: string; inputSchema: { required?: string[] } }[] })
        .tools;
      expect(tools.map((x) => x.name)).toEqual([
        'test_binance_connection',
        'get_account_balance',
        'get_server_status',
        'list_agents',
        'get_agent_status',
        'get_agent_decisions',
      ]);
      expect(tools[0]?.inputSchema.required).toEqual(['api_key', 'secret_key']);
    });

    it('get_server_status reports the database and this instance’s sockets', async () => {
      const s = await open((await signUp(t)).access_token);
      const status = (await s.tool('get_server_status')) as {
        success: boolean;
        data: Record<string, unknown>;
      };
      expect(status.success).toBe(true);
      expect(status.data).toMatchObject({ status: 'ok', database: 'pglite', testnet: true, mainnet: false });
      expect(status.data.connections).toBeGreaterThanOrEqual(1);
    });

    it('test_binance_connection passes the keys to the exchange probe and answers its result', async () => {
      const s = await open((await signUp(t)).access_token);
      expect(
        await s.tool('test_binance_connection', { api_key: KEY, secret_key: SECRET, testnet: false }),
      ).toEqual({
        success: true,
        data: ACCOUNT,
        message: 'Binance connectivity OK',
      });
      expect(probe.calls.at(-1)).toEqual({
        apiKey: KEY,
        secretKey: SECRET,
        region: 'global',
        environment: 'testnet',
      });
      expect(await s.tool('test_binance_connection', { api_key: KEY, secret_key: 'wrong' })).toEqual({
        success: false,
        error: 'Binance connectivity failed: Invalid API-key, IP, or permissions for action.',
      });
    });

    it('a testnet test goes through the vault to the testnet environment, like every keyed call', async () => {
      const s = await open((await signUp(t)).access_token);
      expect(
        await s.tool('test_binance_connection', { api_key: KEY, secret_key: SECRET, testnet: true }),
      ).toEqual({ success: true, data: ACCOUNT, message: 'Binance connectivity OK' });
      expect(probe.calls.at(-1)).toMatchObject({ apiKey: KEY, environment: 'testnet' });
    });

    it('get_account_balance uses the caller’s stored keys, and says so when there are none', async () => {
      const user = await signUp(t);
      const s = await open(user.access_token);
      expect(await s.tool('get_account_balance')).toEqual({
        success: false,
        error: 'No Binance credentials stored. Connect Binance first.',
      });
      const saved = await t.request({
        method: 'POST',
        url: '/api/v1/credentials/binance',
        headers: bearer(user.access_token),
        payload: { api_key: KEY, secret_key: SECRET },
      });
      expect(saved.statusCode).toBeLessThan(300);
      const balance = (await s.tool('get_account_balance')) as { success: boolean; data: AccountTestResult };
      expect(balance.success).toBe(true);
      expect(balance.data.totalWalletBalance).toBe('1234.50');
      expect(probe.calls.at(-1)?.secretKey).toBe(SECRET);
    });

    it('rejects bad tool arguments with -32602 naming the argument', async () => {
      const s = await open((await signUp(t)).access_token);
      const reply = await s.request('tools/call', {
        name: 'test_binance_connection',
        arguments: { secret_key: 'x' },
      });
      expect(reply.error).toEqual({
        code: -32602,
        message: 'Invalid arguments for test_binance_connection: api_key: api_key must be a string',
      });
      const notBool = await s.request('tools/call', {
        name: 'test_binance_connection',
        arguments: { api_key: 'a', secret_key: 'b', testnet: 'yes' },
      });
      expect(notBool.error?.message).toBe(
        'Invalid arguments for test_binance_connection: testnet: testnet must be true or false',
      );
    });
  });

  describe('malformed frames', () => {
    it('answers each with its JSON-RPC error and keeps the socket open', async () => {
      const s = await open((await signUp(t)).access_token);
      expect((await s.raw('{not json')).error).toEqual({
        code: -32700,
        message: 'Parse error: the frame is not valid JSON',
      });
      expect((await s.raw('[]')).error?.code).toBe(-32600);
      expect((await s.raw('42')).error).toEqual({
        code: -32600,
        message: 'Invalid request: expected a JSON-RPC 2.0 object',
      });
      expect((await s.raw(JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'tools/list' }))).error).toEqual({
        code: -32600,
        message: 'Invalid request: jsonrpc must be "2.0"',
      });
      expect((await s.raw(JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'x' }))).error?.code).toBe(
        -32600,
      );
      expect((await s.raw(Buffer.from('{"jsonrpc":"2.0"}'))).error?.message).toBe(
        'Invalid request: send JSON-RPC as text frames, not binary',
      );
      expect((await s.request('resources/list')).error).toEqual({
        code: -32601,
        message: 'Method not found: resources/list',
      });
      expect((await s.request('tools/call', { name: 'delete_everything', arguments: {} })).error).toEqual({
        code: -32602,
        message:
          'Unknown tool: delete_everything. Available tools: test_binance_connection, get_account_balance, ' +
          'get_server_status, list_agents, get_agent_status, get_agent_decisions',
      });
      expect((await s.request('tools/call', 'oops')).error?.code).toBe(-32602);
      expect(
        (await s.request('tools/call', { name: 'get_server_status', arguments: [] })).error?.message,
      ).toBe('Invalid params: arguments must be an object');
      // Still the same socket, still answering
      expect(s.ws.readyState).toBe(s.ws.OPEN);
      expect((await s.request('tools/list')).result).toBeDefined();
    });

    it('does not answer client notifications (no id)', async () => {
      const s = await open((await signUp(t)).access_token);
      s.ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'tools/list' }));
      const reply = await s.request('tools/list');
      expect(reply.id).toBe(2);
      expect(s.frames).toEqual([]);
    });
  });

  describe('pushes', () => {
    it('delivers a push to every socket of its user and to no one else; "all" reaches everyone', async () => {
      const alice = await signUp(t);
      const bob = await signUp(t);
      const a1 = await open(alice.access_token, 'alice-tab-1');
      const a2 = await open(alice.access_token, 'alice-tab-2');
      const b = await open(bob.access_token, 'bob-tab');
      const order = { symbol: 'BTCUSDT', orderId: '42', status: 'FILLED', time: 1 };
      await t.app.socketBus.publish(alice.user.id, { kind: 'order', data: order });
      const method = (m: string) => (f: { method?: string }) => f.method === m;
      expect(await a1.next(method('notifications/order'))).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/order',
        params: order,
      });
      expect((await a2.next(method('notifications/order'))).params).toEqual(order);
      // Bob's next push is his own marker: Alice's order never reached him
      await t.app.socketBus.publish(bob.user.id, { kind: 'balance', data: { asset: 'USDT', time: 2 } });
      expect((await b.next()).method).toBe('notifications/balance');
      const ticker = { symbol: 'ETHUSDT', lastPrice: '3000.1', time: 3 };
      await t.app.socketBus.publish('all', { kind: 'ticker', data: ticker });
      for (const s of [a1, a2, b])
        expect((await s.next(method('notifications/ticker'))).params).toEqual(ticker);
    });

    it('sends only the streams a socket subscribed to', async () => {
      const user = await signUp(t);
      const s = await open(user.access_token);
      const reply = await s.request('streams/subscribe', { streams: ['ticker'] });
      expect(JSON.parse(reply.result?.content?.[0]?.text ?? '')).toEqual({ streams: ['ticker'] });
      await t.app.socketBus.publish(user.user.id, {
        kind: 'order',
        data: { symbol: 'BTCUSDT', orderId: '1', status: 'NEW', time: 1 },
      });
      await t.app.socketBus.publish(user.user.id, {
        kind: 'ticker',
        data: { symbol: 'BTCUSDT', lastPrice: '1', time: 2 },
      });
      expect((await s.next()).method).toBe('notifications/ticker');
      expect((await s.request('streams/subscribe', { streams: ['nope'] })).error?.code).toBe(-32602);
    });

    it('holds a push published while the token is still being checked, and delivers it after the check', async () => {
      const user = await signUp(t);
      // Hold the token check open: the socket is upgraded, and the check has not answered yet
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const check = vi.spyOn(t.app.authService, 'authenticate');
      const real = check.getMockImplementation() ?? t.app.authService.authenticate.bind(t.app.authService);
      let started: () => void = () => {};
      const checking = new Promise<void>((resolve) => {
        started = resolve;
      });
      check.mockImplementationOnce(async (header) => {
        started();
        await gate;
        return real(header);
      });
      try {
        const s = await TestSocket.open(wsUrl(base, user.access_token, 'racing-tab'));
        sockets.push(s);
        await checking;
        const order = { symbol: 'BTCUSDT', orderId: '9', status: 'NEW', time: 9 };
        await t.app.socketBus.publish(user.user.id, { kind: 'order', data: order });
        expect(s.frames).toEqual([]); // nothing is sent before the check passes
        release();
        expect((await s.next((f) => f.method === 'notifications/order')).params).toEqual(order);
      } finally {
        check.mockRestore();
      }
    });

    it('drops what was held for a socket whose token check fails', async () => {
      const user = await signUp(t);
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const check = vi.spyOn(t.app.authService, 'authenticate').mockImplementationOnce(async () => {
        await gate;
        throw new (await import('../src/lib/http-error')).HttpError(
          401,
          'SESSION_ENDED',
          'Session has ended.',
        );
      });
      try {
        const s = await TestSocket.open(wsUrl(base, user.access_token, 'refused-tab'));
        await t.app.socketBus.publish(user.user.id, {
          kind: 'balance',
          data: { asset: 'USDT', time: 1 },
        });
        release();
        expect((await s.closed).code).toBe(CLOSE_CODES.unauthorized);
        expect(s.frames).toEqual([]);
      } finally {
        check.mockRestore();
      }
    });

    it('sends market pushes to the sockets watching the symbol, once per event id', async () => {
      const user = await signUp(t);
      const s = await open(user.access_token, 'watching-tab');
      const reply = await s.request('streams/subscribe', { streams: ['ticker'], symbols: ['solusdt'] });
      expect(JSON.parse(reply.result?.content?.[0]?.text ?? '')).toEqual({
        streams: ['ticker'],
        symbols: ['SOLUSDT'],
      });
      // No live-streams service here (the exchange is unreachable): the test sets what the socket watches
      const [conn] = t.app.socketBus.connections().filter((c) => c.userId === user.user.id);
      expect(conn?.symbols).toEqual(new Set(['SOLUSDT']));
      if (conn) conn.watch = new Set(['SOLUSDT']);
      const ticker = (symbol: string, time: number) => ({ symbol, lastPrice: '1.5', time });
      await t.app.socketBus.publish({ symbol: 'BTCUSDT' }, { kind: 'ticker', data: ticker('BTCUSDT', 1) });
      // The same event published twice (two instances following the same stream) arrives once
      for (let i = 0; i < 2; i++)
        await t.app.socketBus.publish(
          { symbol: 'SOLUSDT' },
          { kind: 'ticker', data: ticker('SOLUSDT', 2) },
          { id: 'ticker:SOLUSDT:2' },
        );
      await t.app.socketBus.publish({ symbol: 'SOLUSDT' }, { kind: 'ticker', data: ticker('SOLUSDT', 3) });
      expect((await s.next()).params).toEqual(ticker('SOLUSDT', 2));
      expect((await s.next()).params).toEqual(ticker('SOLUSDT', 3));
      expect(
        (await s.request('streams/subscribe', { streams: ['ticker'], symbols: ['BTC-USDT'] })).error?.message,
      ).toMatch(/^Invalid params: symbols: /);
    });

    it('delivers a push larger than NOTIFY’s 8000-byte limit intact (multi-byte text included)', async () => {
      const user = await signUp(t);
      const s = await open(user.access_token);
      const note = 'USDⓈ-M '.repeat(4000); // ~36 kB of UTF-8, several chunks
      expect(Buffer.byteLength(note)).toBeGreaterThan(3 * CHUNK_CHARS);
      const data = { botId: 'bot-1', type: 'log', time: 5, note };
      await t.app.socketBus.publish(user.user.id, { kind: 'bot', data });
      expect((await s.next()).params).toEqual(data);
    });

    it('refuses a push that does not match its contract, with the field at fault', async () => {
      const refused = await t.app.socketBus
        .publish('all', {
          kind: 'ticker',
          data: { symbol: 'BTCUSDT', time: 1 } as unknown as {
            symbol: string;
            lastPrice: string;
            time: number;
          },
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(refused).toBeInstanceOf(InvalidLiveEventError);
      expect((refused as Error).message).toMatch(/^Invalid ticker push: lastPrice: /);
    });
  });
});

describe('open sockets end with their session', () => {
  // Logout and revocation close sockets at once (test/abuse/sockets.test.ts); the periodic re-check is for sessions
  // that end without telling the sockets: expiry, or a notification lost between instances.
  // The app's clock is moved by hand: its re-check runs when the test says; sockets, PGlite and promises are real
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12));
  let tdb: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    tdb = await openTestDatabase('pglite');
    t = await buildTestApp(tdb.db, { clock });
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  it(`closes the sockets of a session that ended on its own at the next ${SESSION_RECHECK_MS / 1000} s re-check, and only those`, async () => {
    const base = await listenWs(t);
    const leaving = await signUp(t);
    const staying = await signUp(t);
    const gone = await TestSocket.open(wsUrl(base, leaving.access_token));
    const kept = await TestSocket.open(wsUrl(base, staying.access_token));
    await gone.request('tools/list');
    await kept.request('tools/list');
    // The session's absolute expiry passes (in the row: the socket hears nothing of it)
    await tdb.db.query('UPDATE sessions SET expires_at = $2 WHERE user_id = $1', [
      leaving.user.id,
      new Date(clock.now().getTime() - 1),
    ]);

    await clock.advance(SESSION_RECHECK_MS - 1);
    await kept.request('tools/list'); // a round trip: the re-check has not run yet
    expect(gone.ws.readyState).toBe(gone.ws.OPEN);

    await clock.advance(1);
    expect(await gone.closed).toEqual({ code: 4401, reason: 'Session has ended. Please sign in again.' });
    expect((await kept.request('tools/list')).result).toBeDefined();
    await kept.close();
  });
});
