import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';

// Issue "Hardening", items 6 and 7: the refresh token the spec keeps in local storage is bound to a
// non-extractable key the browser keeps in IndexedDB, so a copy of local storage refreshes nothing elsewhere; and
// two tabs of one browser refreshing at once keep the session (one refresh under a Web Lock, the server's grace
// window behind it).

const KEYS = ['kestrel-access-token', 'kestrel-refresh-token', 'kestrel-user'] as const;
/** An access token the server refuses, so the next page load must refresh (the spec's start: validate, else refresh) */
const REFUSED_ACCESS_TOKEN = 'refused.access.token';

const readStorage = (page: Page) =>
  page.evaluate((keys) => Object.fromEntries(keys.map((k) => [k, localStorage.getItem(k)])), [...KEYS]);

test.describe('the refresh token bound to the browser', () => {
  // Each test signs up and reloads whole pages several times: more than the default 30 s on a loaded machine
  test.describe.configure({ timeout: 90_000 });
  test('keeps its private key non-extractable in IndexedDB, and nothing of it in local storage', async ({
    page,
  }) => {
    await signUp(page);
    const key = await page.evaluate(
      () =>
        new Promise<{ extractable: boolean; algorithm: string; usages: string[] }>((resolve, reject) => {
          const open = indexedDB.open('kestrel-auth');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const get = open.result.transaction('keys').objectStore('keys').get('dpop');
            get.onerror = () => reject(get.error);
            get.onsuccess = () => {
              const pair = get.result as CryptoKeyPair;
              resolve({
                extractable: pair.privateKey.extractable,
                algorithm: (pair.privateKey.algorithm as EcKeyAlgorithm).namedCurve,
                usages: pair.privateKey.usages,
              });
            };
          };
        }),
    );
    expect(key).toEqual({ extractable: false, algorithm: 'P-256', usages: ['sign'] });
    const exported = await page.evaluate(async () => {
      const open = indexedDB.open('kestrel-auth');
      const db = await new Promise<IDBDatabase>((r) => {
        open.onsuccess = () => r(open.result);
      });
      const get = db.transaction('keys').objectStore('keys').get('dpop');
      const pair = await new Promise<CryptoKeyPair>((r) => {
        get.onsuccess = () => r(get.result);
      });
      return crypto.subtle.exportKey('jwk', pair.privateKey).then(
        () => 'exported',
        (err: Error) => err.name,
      );
    });
    expect(exported).toBe('InvalidAccessError');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain('"d"');
  });

  test('a refresh token copied into another browser cannot refresh; the real browser still can', async ({
    page,
    browser,
  }) => {
    await signUp(page);
    const copied = await readStorage(page);
    expect(copied['kestrel-refresh-token']).toBeTruthy();

    // The thief's browser: everything local storage held, but not the IndexedDB key
    const thief = await browser.newContext();
    try {
      const stolen = await thief.newPage();
      await stolen.addInitScript(
        ({ items, refused }) => {
          if (sessionStorage.getItem('planted')) return;
          sessionStorage.setItem('planted', '1');
          for (const [k, v] of Object.entries(items)) if (v) localStorage.setItem(k, v);
          localStorage.setItem('kestrel-access-token', refused);
        },
        { items: copied, refused: REFUSED_ACCESS_TOKEN },
      );
      const refreshAnswer = stolen.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh'));
      await stolen.goto('/dashboard');
      expect((await refreshAnswer).status()).toBe(401);
      // Signed out: the landing page's sign-in form, and the copied tokens gone from its storage
      await expect(stolen.getByRole('form', { name: 'Sign in' })).toBeVisible();
      expect((await readStorage(stolen))['kestrel-refresh-token']).toBeNull();
    } finally {
      await thief.close();
    }

    // The real browser refreshes with its key: the thief's attempt neither spent the token nor ended the session
    await page.evaluate(
      (refused) => localStorage.setItem('kestrel-access-token', refused),
      REFUSED_ACCESS_TOKEN,
    );
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh'));
    const confirmed = userConfirmed(page);
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await confirmed;
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('two tabs refreshing at once both stay signed in, and the session lives on', async ({
    page,
    context,
  }) => {
    await signUp(page);
    const second = await context.newPage();
    await second.goto('/dashboard');
    await expect(second.locator('section[data-remote="dashboard"]')).toBeVisible();

    const refreshes: number[] = [];
    context.on('response', (r) => {
      if (r.url().endsWith('/api/v1/auth/refresh')) refreshes.push(r.status());
    });
    // Both tabs hold a token the server refuses: each reload validates, fails, and refreshes, at the same moment
    await page.evaluate(
      (refused) => localStorage.setItem('kestrel-access-token', refused),
      REFUSED_ACCESS_TOKEN,
    );
    const confirmed = [page, second].map((p) => userConfirmed(p));
    await Promise.all([page.reload(), second.reload()]);
    await Promise.all(confirmed);
    for (const p of [page, second]) await expect(p).toHaveURL(/\/dashboard$/);
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(refreshes.every((status) => status === 200)).toBe(true);

    // The session was not ended as a replay: a further refresh from either tab works
    await second.evaluate(
      (refused) => localStorage.setItem('kestrel-access-token', refused),
      REFUSED_ACCESS_TOKEN,
    );
    const again = userConfirmed(second);
    await second.reload();
    await again;
    const reloaded = userConfirmed(page);
    await page.reload();
    await reloaded;
    for (const p of [page, second]) await expect(p).toHaveURL(/\/dashboard$/);
    expect(refreshes.length).toBeGreaterThanOrEqual(2);
    expect(refreshes.every((status) => status === 200)).toBe(true);
  });
});

/** Resolves when the page's start confirms its user with the server (`/auth/me` answered 200) */
function userConfirmed(page: Page) {
  return page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/me') && r.status() === 200);
}
