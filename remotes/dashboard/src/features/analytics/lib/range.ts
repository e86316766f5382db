const DAY_MS = 86_400_000;

/** The range presets, in the order the picker shows them */
export const RANGE_PRESETS = ['7d', '30d', '90d', 'all'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const RANGE_LABELS: Record<RangePreset | 'custom', string> = {
  '7d': '7 d',
  '30d': '30 d',
  '90d': '90 d',
  all: 'All',
  custom: 'Custom',
};

/** What the trader chose: a preset, or UTC calendar dates (YYYY-MM-DD), both ends included */
export type AnalyticsRange = { preset: RangePreset } | { preset: 'custom'; from: string; to: string };

export const DEFAULT_RANGE: AnalyticsRange = { preset: '30d' };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const PRESET_DAYS: Record<Exclude<RangePreset, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

/** Ms of 00:00 UTC of a YYYY-MM-DD date; NaN when it is not one */
export function utcDate(date: string): number {
  return DATE.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
}

/**
 * The range in ms, both ends inclusive. "7 d" is today (UTC) and the 6 days before it, so the calendar shows whole
 * days; "All" starts at 0 (the server moves it up to the first record); custom dates run 00:00 to 23:59:59.999 UTC
 */
export function resolveRange(range: AnalyticsRange, now: number): { from: number; to: number } {
  if (range.preset === 'custom') return { from: utcDate(range.from), to: utcDate(range.to) + DAY_MS - 1 };
  if (range.preset === 'all') return { from: 0, to: now };
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return { from: today - (PRESET_DAYS[range.preset] - 1) * DAY_MS, to: now };
}

/** Why two custom dates cannot be asked for, or null when they can */
export function customRangeError(from: string, to: string): string | null {
  if (Number.isNaN(utcDate(from))) return 'Choose a start date';
  if (Number.isNaN(utcDate(to))) return 'Choose an end date';
  if (utcDate(from) > utcDate(to)) return 'The start date must not be after the end date';
  return null;
}

/** The range as the address keeps it (`?range=90d`, `?from=2026-11-01&to=2026-11-20`) and back */
export function rangeFromParams(params: URLSearchParams): AnalyticsRange {
  const from = params.get('from');
  const to = params.get('to');
  if (from && to && customRangeError(from, to) === null) return { preset: 'custom', from, to };
  const preset = params.get('range');
  return (RANGE_PRESETS as readonly string[]).includes(preset ?? '')
    ? { preset: preset as RangePreset }
    : DEFAULT_RANGE;
}

export function rangeToParams(range: AnalyticsRange): Record<string, string> {
  return range.preset === 'custom' ? { from: range.from, to: range.to } : { range: range.preset };
}
