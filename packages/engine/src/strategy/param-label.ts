/**
 * A strategy parameter in the words its form field shows: "positionFraction" → "Position fraction", "stopLossPct" →
 * "Stop loss %"; a parameter shown in percent (`percent`) always ends in "%". The server says the same words when
 * it names a parameter (the starting values it raised)
 */
export function paramLabel(key: string, percent = false): string {
  const words = key
    .replace(/Pct$/, ' %')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  return percent && !label.endsWith('%') ? `${label} %` : label;
}
