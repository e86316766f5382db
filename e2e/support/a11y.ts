import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core: no serious or critical WCAG 2.0/2.1 A/AA violation (contrast included) on the page, or inside `scope`
 * (a CSS selector, e.g. one remote's section)
 */
export async function expectAccessible(page: Page, scope?: string): Promise<void> {
  // Colours ease for a moment after a theme switch (transition-colors): judge contrast once they have settled, not
  // halfway between the two themes
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.constructor.name !== 'CSSTransition' || a.playState !== 'running'),
  );
  const builder = new AxeBuilder({ page });
  if (scope !== undefined) builder.include(scope);
  const results = await builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}
