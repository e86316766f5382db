/**
 * config.json beside the app's files (wherever the app is hosted, never relative to a deep link), asked for as the
 * page starts, while the shell's code is still loading, instead of once that code has run: one round trip less
 * before the first paint. `bootstrap.tsx` reads the answer.
 */
export const configUrl = `${__webpack_public_path__}config.json`;

export const configResponse: Promise<Response> = fetch(configUrl, { cache: 'no-store' });
// Read (and its failure reported) by bootstrap; until then a failure must not count as unhandled
configResponse.catch(() => undefined);
