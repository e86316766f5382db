import { AGENT_FEATURES } from '@kestrel/engine';

/**
 * A feature's words for the page, from the engine's own catalogue (the remote already carries the engine for the
 * strategies' schemas). An id it does not know (a model trained by another engine version) is shown as itself.
 */
const LABELS = new Map<string, string>(AGENT_FEATURES.map((f) => [f.id, f.label]));

export function featureLabel(id: string): string {
  return LABELS.get(id) ?? id;
}
