/** A feature's term in the decision's logit, as the record's bar chart draws it */
export interface ContributionBar {
  id: string;
  contribution: number;
  value: number | null;
  available: boolean;
  /** Share of the largest |contribution|, 0…1: the bar's length */
  share: number;
}

/**
 * The features sorted by how much they moved the decision (|coefficient × scaled value|, largest first; ties by id
 * so the order is stable), each with its bar length against the largest. Missing features (no column on this
 * exchange) sort last: they were imputed and moved nothing
 */
export function contributionBars(
  contributions: readonly { id: string; contribution: number; value: number | null; available: boolean }[],
): ContributionBar[] {
  const max = Math.max(0, ...contributions.map((c) => Math.abs(c.contribution)));
  return [...contributions]
    .sort(
      (a, b) =>
        Number(b.available) - Number(a.available) ||
        Math.abs(b.contribution) - Math.abs(a.contribution) ||
        a.id.localeCompare(b.id),
    )
    .map((c) => ({
      id: c.id,
      contribution: c.contribution,
      value: c.value,
      available: c.available,
      share: max > 0 ? Math.abs(c.contribution) / max : 0,
    }));
}

/** The side a decision's probability is read on: p(up) for longs, p(down) for shorts, the larger one otherwise */
export function decisiveProbability(d: { action: string; pUp: number | null; pDown: number | null }): {
  side: 'up' | 'down';
  p: number | null;
} {
  if (d.action === 'enter_long') return { side: 'up', p: d.pUp };
  if (d.action === 'enter_short') return { side: 'down', p: d.pDown };
  if (d.pUp === null && d.pDown === null) return { side: 'up', p: null };
  return (d.pUp ?? 0) >= (d.pDown ?? 0) ? { side: 'up', p: d.pUp } : { side: 'down', p: d.pDown };
}
