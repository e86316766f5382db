import { describe, expect, it } from 'vitest';
import { SHARED_PACKAGES, surfaceDrift } from './api-surface.mjs';

// A remote is built against one version of each shared package and runs on whichever the page has: the version
// is the only thing the federation check and config.json's ranges can compare, so it must move with the contract
describe('shared packages: a changed contract comes with a new version', () => {
  it.each(SHARED_PACKAGES)(
    '%s matches its recorded api-surface.json',
    (pkgDir) => {
      expect(surfaceDrift(pkgDir)).toEqual([]);
    },
    240_000,
  );
});
