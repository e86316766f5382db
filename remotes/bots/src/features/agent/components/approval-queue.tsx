import type { AgentApproval } from '@kestrel/contracts/agents';
import { Badge, Button, formatDateTime, formatPercent } from '@kestrel/ui';
import { useNow } from '../../../lib/use-now';
import { actionLabel, countdownText } from '../lib/agent-words';

/**
 * Proposals of stage "live with approval": each waits for a click until its time runs out (the server records the
 * expiry); an approved one still goes through the risk guard. Decided ones stay listed with what became of them
 */
export function ApprovalQueue({
  approvals,
  busyId,
  onDecide,
}: {
  approvals: readonly AgentApproval[];
  busyId: string | null;
  onDecide: (approvalId: string, decision: 'approve' | 'reject') => void;
}) {
  const pending = approvals.filter((a) => a.state === 'pending');
  const now = useNow(pending.length > 0);
  if (approvals.length === 0) {
    return (
      <p className="bt:text-sm bt:text-muted-foreground">
        No proposals. In the stage "Live with approval" each entry the agent wants waits here for your click.
      </p>
    );
  }
  return (
    <ul aria-label="Proposals" className="bt:flex bt:flex-col bt:gap-2">
      {approvals.map((a) => {
        const left = a.expiresAt - now;
        const open = a.state === 'pending' && left > 0;
        return (
          <li
            key={a.id}
            data-approval-id={a.id}
            data-approval-state={a.state}
            className="bt:flex bt:flex-wrap bt:items-center bt:gap-2 bt:rounded-md bt:border bt:border-border bt:px-3 bt:py-2 bt:text-sm"
          >
            <span className="bt:font-medium">
              {actionLabel(a.action)} · {formatPercent(a.sizeFraction, { digits: 1 })} of budget
            </span>
            <span className="bt:text-xs bt:text-muted-foreground">
              proposed {formatDateTime(a.createdAt)} UTC
            </span>
            {a.state === 'pending' ? (
              <span className="bt:font-mono bt:text-xs bt:tabular-nums" data-expires-at={a.expiresAt}>
                {open ? `expires in ${countdownText(left)}` : 'expired'}
              </span>
            ) : (
              <Badge variant={a.state === 'approved' ? 'success' : 'outline'}>{a.state}</Badge>
            )}
            {a.note && <span className="bt:w-full bt:text-xs bt:text-muted-foreground">{a.note}</span>}
            {open && (
              <span className="bt:ml-auto bt:flex bt:gap-2">
                <Button size="sm" disabled={busyId !== null} onClick={() => onDecide(a.id, 'approve')}>
                  Approve
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={busyId !== null}
                  onClick={() => onDecide(a.id, 'reject')}
                >
                  Reject
                </Button>
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
