import { expect, it } from 'vitest';
import { makeZodJitless } from './zod-jitless';

it('sets the jitless setting that zod reads, before zod has loaded', async () => {
  makeZodJitless();
  // Loaded after the setting, as on the page (this file imports no zod at its top)
  const { config } = await import('zod/v4/core');
  expect(config().jitless).toBe(true);
});
