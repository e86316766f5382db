import { type ClassValue, clsx } from 'clsx';
import { extendTailwindMerge } from 'tailwind-merge';

// ui classes carry the `ui:` prefix; classes of the calling app (other prefixes) pass through untouched
const twMerge = extendTailwindMerge({ prefix: 'ui' });

/** Joins class names and lets later ui utilities override earlier conflicting ones */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
