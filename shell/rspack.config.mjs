import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineFederatedApp } from '@kestrel/federation';

export default defineFederatedApp({
  name: 'shell',
  dir: import.meta.dirname,
  title: 'Kestrel',
  // What React renders for the landing page around its sign-in card (kept equal by landing-frame.test.tsx)
  landingHtml: readFileSync(
    join(import.meta.dirname, 'src/app/routes/landing.prerender.html'),
    'utf8',
  ).trim(),
});
