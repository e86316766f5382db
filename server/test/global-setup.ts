import { pgliteSnapshot } from '../src/testing';

/**
 * Makes (or finds in the cache) the migrated PGlite cluster every test database starts from, once before the test
 * files run, so parallel files do not each spend seconds in initdb on a cold cache (see `pgliteSnapshot`).
 */
export default async function setup(): Promise<void> {
  await pgliteSnapshot();
}
