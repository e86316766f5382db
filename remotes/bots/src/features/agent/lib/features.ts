/**
 * A feature's words for the page. The engine's catalogue (`AGENT_FEATURES`) names every feature it computes; an id
 * it does not know (a model trained by an older engine) is shown as itself.
 */
const LABELS = new Map<string, string>();

export function featureLabel(id: string): string {
  return LABELS.get(id) ?? id;
}
