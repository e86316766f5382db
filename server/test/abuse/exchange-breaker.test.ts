import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clockReading } from '../../src/lib/clock';
import { bearer, startTestServer, type TestServer } from '../helper';
import { limitBuyAt40k } from '../order-bodies';

const FAILURES = 3;
const COOL_DOWN_MS = 1_500;

/**
 * Issue "Hardening", finding 6: no circuit breaker on the exchange client, so during an outage every call waited
 * its full 10 s timeout. After repeated failures to a host the circuit opens: calls answer 503 at once with the
 * time of the next try; after a cool-down one probe goes through and closes it. An order whose outcome is unknown
 * stays unknown while the circuit is open (its lookups are refused, not answered "not found").
 */
describe('circuit breaker on the exchange client', () => {
  /** How far the test has moved the exchange's and the client's time past the wall clock */
  let shift = 0;
  const wall = () => Date.now() + shift;
  let s: TestServer;
  let token: string;
  let keys: { apiKey: string; secretKey: string };
  beforeAll(async () => {
    s = await startTestServer({
      // The wall clock on the simulator and the exchange client, both moved on by hand past a cool-down: signed
      // calls carry real timestamps (a frozen clock would answer -1021), and nothing waits the cool-down out
      simulator: { clock: { now: wall } },
      deps: { exchangeClock: clockReading(() => new Date(wall())) },
      env: {
        KESTREL_EXCHANGE_BREAKER_FAILURES: String(FAILURES),
        KESTREL_EXCHANGE_BREAKER_COOLDOWN_MS: String(COOL_DOWN_MS),
      },
    });
    const user = await s.connectedUser();
    token = user.auth.access_token;
    keys = user.keys;
  });
  afterAll(async () => {
    await s?.close();
  });
  beforeEach(() => {
    s.sim.faults.clear();
    // Every test starts with closed circuits: whatever the last one left open has cooled down
    shift += COOL_DOWN_MS + 100;
  });

  /** A signed read of the user's positions: one upstream call each time (market answers are shared for 2 s) */
  const positions = () =>
    s.request({ method: 'GET', url: '/api/futures/positions/active', headers: bearer(token) });
  const waitOut = () => {
    shift += COOL_DOWN_MS + 100;
  };

  it(`opens after ${FAILURES} failures: answers 503 at once with the next try, sends nothing, then a probe closes it`, async () => {
    s.sim.faults.add({ kind: 'error', status: 503, remaining: FAILURES });
    for (let i = 0; i < FAILURES; i += 1) expect((await positions()).statusCode).toBe(503);

    // Were this sent, the simulator would swallow it and the call would wait out the client's 10 s timeout
    const swallow = s.sim.faults.add({ kind: 'timeout', remaining: 1 });
    const started = Date.now();
    const refused = await positions();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().detail).toMatch(
      new RegExp(
        `^Binance connectivity failed: exchange not reachable \\(127\\.0\\.0\\.1:\\d+ for this API key failed ${FAILURES} times in a row; Kestrel tries it again at \\d{4}-\\d\\d-\\d\\dT`,
      ),
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(s.sim.faults.list().find((f) => f.id === swallow.id)?.remaining).toBe(1);
    s.sim.faults.clear();

    waitOut();
    // The probe reaches the exchange, which answers: closed, and the calls after it go through as well
    expect((await positions()).statusCode).toBe(200);
    expect((await positions()).statusCode).toBe(200);
  });

  it('a failed probe opens it again for another cool-down', async () => {
    s.sim.faults.add({ kind: 'error', status: 500, remaining: 1000 });
    for (let i = 0; i < FAILURES; i += 1) await positions();
    waitOut();
    expect((await positions()).statusCode).toBe(503); // the probe, failed by the simulator (still down)
    const again = await positions();
    expect(again.statusCode).toBe(503);
    expect(again.json().detail).toMatch(/tries it again at/);
    s.sim.faults.clear(); // the exchange is back
    waitOut();
    expect((await positions()).statusCode).toBe(200);
  });

  it('keeps an order whose answer was lost "unknown" while the circuit is open, and resolves it to placed after', async () => {
    const clientOrderId = `breaker-${Date.now()}`;
    // Placed on the exchange, its answer replaced by a 500; every lookup fails too, until the circuit opens
    s.sim.faults.add({
      kind: 'error',
      status: 500,
      method: 'POST',
      path: '/fapi/v1/order',
      phase: 'after',
      remaining: 1,
    });
    s.sim.faults.add({ kind: 'error', status: 500, method: 'GET', phase: 'before', remaining: 1000 });
    const created = await s.request({
      method: 'POST',
      url: '/api/futures/orders/create',
      headers: bearer(token),
      payload: limitBuyAt40k(clientOrderId),
    });
    expect(created.statusCode).toBe(503);
    expect(created.json().code).toBe('ORDER_STATUS_UNKNOWN');
    const intentOf = async () => {
      const [row] = await s.database.db.query<{ id: string; state: string }>(
        'SELECT id, state FROM order_intents WHERE client_order_id = $1',
        [clientOrderId],
      );
      if (!row) throw new Error('the intent was not recorded');
      return row;
    };
    // Lookups until the circuit opens, then the lookups are refused at once: still unknown, never "not placed"
    for (let i = 0; i < FAILURES + 1; i += 1) await s.app.orderManager.resolve((await intentOf()).id);
    expect((await intentOf()).state).toBe('unknown');
    // It is on the exchange all along
    expect(s.sim.exchange.accountByKey(keys.apiKey)?.openOrders.size).toBe(1);

    s.sim.faults.clear(); // the exchange is back; the order manager's next lookup (the probe) finds the order
    waitOut();
    const resolved = await s.app.orderManager.resolve((await intentOf()).id);
    expect(resolved?.state).toBe('placed');
  });

  it('one account’s failing key refuses that key’s calls only: another account trades on', async () => {
    const other = await s.connectedUser();
    s.sim.faults.add({ kind: 'error', status: 500, apiKey: keys.apiKey, remaining: 1000 });
    for (let i = 0; i < FAILURES; i += 1) expect((await positions()).statusCode).toBe(503);
    const refused = await positions();
    expect(refused.json().detail).toMatch(/for this API key failed 3 times in a row/);
    // The other trader's reads and orders reach the exchange as before
    const theirs = (method: 'GET' | 'POST', url: string, payload?: object) =>
      s.request({ method, url, headers: bearer(other.auth.access_token), ...(payload ? { payload } : {}) });
    expect((await theirs('GET', '/api/futures/positions/active')).statusCode).toBe(200);
    const placed = await theirs('POST', '/api/futures/orders/create', limitBuyAt40k(`other-${Date.now()}`));
    expect(placed.statusCode, placed.body).toBe(201);
    expect(s.sim.exchange.accountByKey(other.keys.apiKey)?.openOrders.size).toBe(1);
    // Public market data is no one account's: it flows too
    expect((await theirs('GET', '/api/v1/market/ticker/BTCUSDT')).statusCode).not.toBe(503);
  });

  it('tries the kill switch while the key’s circuit is open, and it flattens the account', async () => {
    const trader = await s.connectedUser();
    const send = (method: 'GET' | 'POST', url: string, payload?: object) =>
      s.request({ method, url, headers: bearer(trader.auth.access_token), ...(payload ? { payload } : {}) });
    const bought = await send('POST', '/api/futures/orders/create', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.010',
    });
    expect(bought.statusCode, bought.body).toBe(201);
    // The key's calls fail until its circuit opens; then the exchange answers again, the circuit still cooling down
    s.sim.faults.add({ kind: 'error', status: 500, apiKey: trader.keys.apiKey, remaining: FAILURES });
    for (let i = 0; i < FAILURES; i += 1)
      expect((await send('GET', '/api/futures/positions/active')).statusCode).toBe(503);
    expect((await send('GET', '/api/futures/positions/active')).json().detail).toMatch(/tries it again at/);
    const killed = await send('POST', '/api/v1/risk/kill-switch', {});
    expect(killed.statusCode, killed.body).toBe(200);
    expect(killed.json().data).toMatchObject({ failed: 0 });
    const account = s.sim.exchange.accountByKey(trader.keys.apiKey);
    expect([...(account?.positions.values() ?? [])].every((p) => p.amt.isZero())).toBe(true);
  });

  it('opens the host’s circuit only when its failures come from more than one caller', async () => {
    // Two traders whose keys never failed before
    const [one, other] = [await s.connectedUser(), await s.connectedUser()];
    s.sim.faults.add({ kind: 'error', status: 500, remaining: 1000 });
    for (let i = 0; i < FAILURES; i += 1)
      await s.request({
        method: 'GET',
        url: '/api/futures/positions/active',
        headers: bearer(one.auth.access_token),
      });
    // The exchange is down for everyone: the next caller's failure opens the host's circuit
    const theirs = () =>
      s.request({
        method: 'GET',
        url: '/api/futures/positions/active',
        headers: bearer(other.auth.access_token),
      });
    expect((await theirs()).statusCode).toBe(503);
    const swallow = s.sim.faults.add({ kind: 'timeout', remaining: 1 });
    const refused = await theirs();
    expect(refused.statusCode).toBe(503);
    expect(refused.json().detail).toMatch(/127\.0\.0\.1:\d+ failed 3 times in a row/);
    expect(s.sim.faults.list().find((f) => f.id === swallow.id)?.remaining).toBe(1);
  });
});
