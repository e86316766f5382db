import type { BotState } from '@kestrel/contracts/bots';
import { Badge } from '@kestrel/ui';
import { STATE_BADGES, STATE_LABELS } from '../lib/bot-words';

export function BotStateBadge({ state }: { state: BotState }) {
  return (
    <Badge variant={STATE_BADGES[state]} data-state={state}>
      {STATE_LABELS[state]}
    </Badge>
  );
}
