import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CardPlace, LandingFrame } from './landing-frame';

describe('the landing page painted from the HTML', () => {
  // The shell's build puts this file into index.html (rspack.config.mjs). Changed the landing page's texts or
  // markup? Run this test with `-u` to write the file again, and rebuild.
  it('is what React renders for the page around the sign-in card, so the takeover changes nothing on screen', async () => {
    const html = renderToStaticMarkup(
      <LandingFrame>
        <CardPlace />
      </LandingFrame>,
    );
    await expect(`${html}\n`).toMatchFileSnapshot('./landing.prerender.html');
  });
});
