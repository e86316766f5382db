export const SHARED_PACKAGES: string[];
export function apiSurface(pkgDir: string): {
  name: string;
  version: string;
  exports: Record<string, Record<string, string>>;
};
export function recordedSurfacePath(pkgDir: string): string;
/** What is wrong between a package's contract and its record, in words; empty when they agree */
export function surfaceDrift(pkgDir: string): string[];
