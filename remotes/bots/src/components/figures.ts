/** Numbers a trader compares in columns: monospace, tabular, right-aligned */
export const figureClassName = 'bt:font-mono bt:tabular-nums bt:text-right';

/** Text colour of a figure's tone (tokens: success = profit, destructive = loss) */
export function toneClassName(tone: 'positive' | 'negative' | 'neutral'): string {
  if (tone === 'positive') return 'bt:text-success';
  if (tone === 'negative') return 'bt:text-destructive';
  return '';
}
