/** Colours of the design tokens, as the canvas-drawing chart library needs them (it cannot read CSS variables) */
export interface ChartTheme {
  background: string;
  foreground: string;
  muted: string;
  border: string;
  primary: string;
  success: string;
  destructive: string;
}

let probe: CanvasRenderingContext2D | null | undefined;

/**
 * Any CSS colour (the tokens are oklch) as `rgba(r, g, b, a)`: painted on a 1×1 canvas and read back, so the
 * result is what the browser itself renders
 */
function toRgba(color: string, fallback: string): string {
  if (!color) return fallback;
  if (probe === undefined) {
    probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  }
  if (!probe) return fallback;
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = fallback;
  probe.fillStyle = color;
  probe.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
  return `rgba(${r}, ${g}, ${b}, ${((a ?? 255) / 255).toFixed(3)})`;
}

/** Any CSS colour resolved by the browser, as `rgba(r, g, b, a)`; `fallback` where it cannot be read */
export function resolveColor(color: string, fallback: string): string {
  return toRgba(color, fallback);
}

/** Reads the current theme's tokens from the element (light on :root, dark under `.dark`) */
export function readChartTheme(element: Element): ChartTheme {
  const style = getComputedStyle(element);
  const token = (name: string, fallback: string) =>
    toRgba(style.getPropertyValue(`--${name}`).trim(), fallback);
  return {
    background: token('card', '#ffffff'),
    foreground: token('foreground', '#1f2937'),
    muted: token('muted-foreground', '#6b7280'),
    border: token('border', '#e5e7eb'),
    primary: token('primary', '#2563eb'),
    success: token('success', '#16a34a'),
    destructive: token('destructive', '#dc2626'),
  };
}

/** The same colour with another opacity: `rgba(…, 0.2)` */
export function withAlpha(rgba: string, alpha: number): string {
  return rgba.replace(/,\s*[\d.]+\)$/, `, ${alpha})`);
}
