import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bearer } from './test-app';
import { startTestServer } from './test-server';

/** True when nothing accepts TCP connections at `url` any more (a fresh socket: fetch would reuse pooled ones) */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('startTestServer', () => {
  it('starts the app against the simulator with a connected user, and close() stops both (twice is fine)', async () => {
    const t = await startTestServer();
    const { auth } = await t.connectedUser();
    const status = await t.request({
      method: 'GET',
      url: '/api/v1/credentials/binance/status',
      headers: bearer(auth.access_token),
    });
    expect(status.json()).toMatchObject({ data: { connectivity_status: 'connected' } });
    const apiUrl = await t.listen();
    expect((await fetch(`${apiUrl}/api/v1/health`)).status).toBe(200);

    await t.close();
    await t.close();
    expect(await refused(t.simUrl)).toBe(true);
    expect(await refused(apiUrl)).toBe(true);
  });

  it('a failed start stops the simulator it had started and rethrows', async () => {
    let simUrl = '';
    const starting = startTestServer({
      deps: (url) => {
        simUrl = url;
        throw new Error('no deps today');
      },
    });
    await expect(starting).rejects.toThrow('no deps today');
    expect(simUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await refused(simUrl)).toBe(true);
  });
});
