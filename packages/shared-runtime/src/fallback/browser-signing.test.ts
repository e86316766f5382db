// @vitest-environment node
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../test/http-server';
import { hmacSha256Hex, testBinanceConnectionInBrowser, toAccountTestResult } from './browser-signing';

// Binance's documented USDⓈ-M signing example (General Info, "SIGNED Endpoint Examples")
const DOC_KEY = 'dbefbc809e3e83c283a984c3a1459732ea7db1360ca80c5c2c8867408d28cc83';
const DOC_SECRET = '2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9';
const DOC_QUERY =
  'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=9000&timeInForce=GTC&recvWindow=5000&timestamp=1591702613943';
const DOC_SIGNATURE = '3c661234138461fcc7a7d8746c6558c9842d4e10870d2ecbedf7777cad694af9';

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

/** A loopback stand-in for fapi that checks the signature the way Binance does */
async function fakeBinance(serverTime: () => number) {
  server = await startTestServer({
    'GET /fapi/v1/ping': () => ({ json: {} }),
    'GET /fapi/v1/time': () => ({ json: { serverTime: serverTime() } }),
    'GET /fapi/v3/account': (req) => {
      const raw = [...req.query.entries()].filter(([k]) => k !== 'signature');
      const payload = raw.map(([k, v]) => `${k}=${v}`).join('&');
      const expected = createHmac('sha256', DOC_SECRET).update(payload).digest('hex');
      if (req.headers['x-mbx-apikey'] !== DOC_KEY) {
        return { status: 401, json: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' } };
      }
      if (req.query.get('signature') !== expected) {
        return { status: 400, json: { code: -1022, msg: 'Signature for this request is not valid.' } };
      }
      const ts = Number(req.query.get('timestamp'));
      if (!(ts < serverTime() + 1000 && serverTime() - ts <= Number(req.query.get('recvWindow')))) {
        return {
          status: 400,
          json: { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' },
        };
      }
      return {
        json: {
          totalWalletBalance: '1000.00000000',
          totalUnrealizedProfit: '12.50000000',
          totalMarginBalance: '1012.50000000',
          assets: [{ asset: 'USDT' }, { asset: 'BNB' }],
          positions: [
            { symbol: 'BTCUSDT', positionAmt: '0.010' },
            { symbol: 'ETHUSDT', positionAmt: '0.000' },
          ],
        },
      };
    },
  });
  return server;
}

describe('browser fallback signing (spec §7)', () => {
  it("reproduces Binance's documented HMAC-SHA256 signature with WebCrypto", async () => {
    expect(await hmacSha256Hex(DOC_SECRET, DOC_QUERY)).toBe(DOC_SIGNATURE);
  });

  it('pings, reads the server time, then sends a signed account request with the key in the header', async () => {
    const s = await fakeBinance(() => Date.now());
    const outcome = await testBinanceConnectionInBrowser(
      { apiKey: DOC_KEY, secretKey: DOC_SECRET, testnet: false },
      { baseUrl: () => s.url },
    );
    expect(outcome).toEqual({
      success: true,
      data: {
        accountType: 'USDT_FUTURES',
        totalWalletBalance: '1000.00000000',
        totalUnrealizedProfit: '12.50000000',
        totalMarginBalance: '1012.50000000',
        canTrade: false,
        canWithdraw: false,
        canDeposit: false,
        assetsCount: 2,
        positionsCount: 1,
      },
    });
    expect(s.requests.map((r) => r.path)).toEqual(['/fapi/v1/ping', '/fapi/v1/time', '/fapi/v3/account']);
    for (const r of s.requests) {
      expect(JSON.stringify({ q: [...r.query.entries()], h: r.headers })).not.toContain(DOC_SECRET);
    }
  });

  it("signs with the exchange's clock when the local clock is 10 minutes off", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
    const exchangeNow = () => Date.now() + 10 * 60_000;
    const s = await fakeBinance(exchangeNow);
    const outcome = await testBinanceConnectionInBrowser(
      { apiKey: DOC_KEY, secretKey: DOC_SECRET, testnet: false },
      { baseUrl: () => s.url },
    );
    expect(outcome.success).toBe(true);
  });

  it("reports the exchange's rejection as a connectivity failure", async () => {
    const s = await fakeBinance(() => Date.now());
    const outcome = await testBinanceConnectionInBrowser(
      { apiKey: 'not-the-key', secretKey: DOC_SECRET, testnet: true },
      { baseUrl: (testnet) => (testnet ? s.url : 'http://127.0.0.1:9') },
    );
    expect(outcome).toEqual({
      success: false,
      error: 'Binance connectivity failed: Invalid API-key, IP, or permissions for action. (code -2015)',
    });
  });

  it('reads canTrade, canWithdraw and canDeposit from the account data when the exchange sends them', () => {
    expect(
      toAccountTestResult({
        canTrade: true,
        canWithdraw: false,
        canDeposit: true,
        totalWalletBalance: '5',
        assets: [],
        positions: [],
      }),
    ).toMatchObject({ canTrade: true, canWithdraw: false, canDeposit: true, totalWalletBalance: '5' });
  });

  it('requires both keys before calling anything', async () => {
    expect(await testBinanceConnectionInBrowser({ apiKey: 'k', secretKey: '', testnet: false })).toEqual({
      success: false,
      error: 'API Key and Secret Key are required',
    });
  });
});
