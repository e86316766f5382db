/**
 * The page's Content Security Policy refuses eval. zod compiles a fast path for object schemas with `new Function`
 * after probing whether it may; under the policy that probe is refused and reported as a violation (zod then checks
 * without eval anyway). zod 4 keeps its settings in one object on globalThis, shared by every copy on the page (the
 * remotes' too), and reads `jitless` as each object schema is built. Set here, before any zod has loaded, without
 * loading zod: the landing page starts without it (~25 KB gzip), and the contracts load later.
 * `zod-jitless.test.ts` checks that zod reads this very object, so a zod that moves it fails there.
 */
const ZOD_SETTINGS = '__zod_globalConfig';

export function makeZodJitless(
  global: Record<string, unknown> = globalThis as unknown as Record<string, unknown>,
) {
  const current = global[ZOD_SETTINGS];
  global[ZOD_SETTINGS] = { ...(typeof current === 'object' ? current : {}), jitless: true };
}
