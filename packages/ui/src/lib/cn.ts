import { type ClassValue, clsx } from 'clsx';

/**
 * Joins class names. No merging of conflicting utilities (tailwind-merge cost every page 9 KB gzip): a component
 * never gives two classes of one property for the same state (a button's size names its own text size), and an
 * app's classes carry its own prefix, so they never conflict with ui's; where an app must restyle ui, its own
 * prefixed utility decides by the stylesheets' order (`tooling/federation` class-prefixes test)
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
