import type { AgentStatus } from '@kestrel/contracts/agents';
import { Button, cn, formatDateTime, formatQuantity } from '@kestrel/ui';
import { type Figure, FigureGrid } from '@kestrel/ui/figures';
import { agentStateLine, latchSentence } from '../lib/agent-state';
import { hoursText, latchCauseLabel, stageHint, stageLabel } from '../lib/agent-words';
import { GateList } from './evidence-panel';

const TONES = {
  ok: 'bt:border-success bt:bg-success/10',
  warn: 'bt:border-warning bt:bg-warning/10',
  bad: 'bt:border-destructive bt:bg-destructive/10 bt:text-destructive',
  idle: 'bt:border-border bt:bg-muted/40',
} as const;

function positionText(qty: number): string {
  if (qty === 0) return 'Flat';
  return `${qty > 0 ? 'Long' : 'Short'} ${formatQuantity(Math.abs(qty))}`;
}

function statusFigures(status: AgentStatus, llmSpend: string | null): Figure[] {
  const { bot, model, training } = status;
  const figures: Figure[] = [
    {
      key: 'mode',
      label: 'Mode',
      value: bot.mode === 'live' ? 'Live' : 'Paper',
      hint: bot.environment === 'mainnet' ? 'mainnet, real money' : 'testnet',
    },
    { key: 'stage', label: 'Stage', value: stageLabel(status.stage), hint: stageHint(status.stage) },
    {
      key: 'model-age',
      label: 'Model age',
      value: model ? hoursText(model.ageHours) : 'No model',
      hint: model
        ? `expires at ${hoursText(model.expiryHours)}${model.stale ? ': stale, no entries' : ''}`
        : 'train it first',
      ...(model?.stale ? { valueClassName: 'bt:text-destructive' } : {}),
    },
    {
      key: 'retrain',
      label: 'Next retrain',
      value: model?.nextRetrainAt ? formatDateTime(model.nextRetrainAt) : '—',
      hint: model ? `last trained ${formatDateTime(model.trainedAt)} UTC` : 'when it runs',
    },
    {
      key: 'training',
      label: 'Training',
      value: training.state === 'training' ? 'Training…' : training.state === 'failed' ? 'Failed' : 'Idle',
      ...(training.state === 'failed' ? { valueClassName: 'bt:text-destructive' } : {}),
      ...(training.finishedAt ? { hint: `last finished ${formatDateTime(training.finishedAt)} UTC` } : {}),
    },
    { key: 'position', label: 'Position', value: positionText(status.positionQty), hint: bot.symbol },
    { key: 'approvals', label: 'Waiting approvals', value: String(status.pendingApprovals) },
  ];
  if (llmSpend !== null) figures.push({ key: 'llm', label: 'LLM today', value: llmSpend });
  return figures;
}

/** The status block: state and why, latch, figures, training failure, and the next stage's gates */
export function AgentStatusView({
  status,
  llmSpend,
  onReset,
  onPromote,
  onDemote,
  busy,
}: {
  status: AgentStatus;
  /** "3 calls · 4,210 tokens · 0.02 USD", or null when no LLM is configured / known */
  llmSpend: string | null;
  onReset: () => void;
  onPromote: () => void;
  onDemote: () => void;
  busy: boolean;
}) {
  const line = agentStateLine(status);
  const { latch, training, promotion } = status;
  return (
    <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-4">
      {latch && (
        <div
          role="alert"
          aria-label="Latched"
          className="bt:flex bt:flex-wrap bt:items-center bt:gap-3 bt:rounded-md bt:border bt:border-destructive bt:bg-destructive/10 bt:px-3 bt:py-2 bt:text-sm"
        >
          <div className="bt:flex bt:min-w-0 bt:flex-1 bt:flex-col bt:gap-0.5">
            <strong className="bt:text-destructive">
              {latchCauseLabel(latch.cause)}: latched since {formatDateTime(latch.latchedAt)} UTC
            </strong>
            <span>{latchSentence(latch)}</span>
          </div>
          <Button size="sm" variant="outline" disabled={busy} onClick={onReset}>
            Reset latch
          </Button>
        </div>
      )}
      {/* Hidden under a latch: its banner already says why the agent is stopped */}
      <p
        data-agent-state={status.bot.state}
        hidden={latch !== null}
        className={cn('bt:rounded-md bt:border bt:px-3 bt:py-2 bt:text-sm', TONES[line.tone])}
      >
        {line.text}
      </p>
      {training.state === 'failed' && training.lastError && (
        <p role="alert" className="bt:text-sm bt:text-destructive">
          The last training failed: {training.lastError}
        </p>
      )}
      <FigureGrid
        label="Agent status"
        className="bt:lg:grid-cols-4"
        figures={statusFigures(status, llmSpend)}
      />
      {promotion ? (
        <div className="bt:flex bt:flex-col bt:gap-2 bt:rounded-md bt:border bt:border-border bt:p-3">
          <div className="bt:flex bt:flex-wrap bt:items-center bt:justify-between bt:gap-2">
            <h3 className="bt:text-sm bt:font-semibold">
              Next stage: {stageLabel(promotion.to)}{' '}
              <span className="bt:font-normal bt:text-muted-foreground">
                {promotion.allowed ? '(every gate passes)' : '(gates not met)'}
              </span>
            </h3>
            <div className="bt:flex bt:flex-wrap bt:gap-2">
              {status.stage !== 'backtest' && status.stage !== 'paper' && (
                <Button size="sm" variant="outline" disabled={busy} onClick={onDemote}>
                  Back to paper
                </Button>
              )}
              <Button size="sm" disabled={busy || !promotion.allowed || latch !== null} onClick={onPromote}>
                Promote to {stageLabel(promotion.to)}
              </Button>
            </div>
          </div>
          <p className="bt:text-xs bt:text-muted-foreground">{stageHint(promotion.to)}</p>
          <GateList gates={promotion.gates} label={`Gates for ${stageLabel(promotion.to)}`} />
        </div>
      ) : (
        status.stage === 'live_auto' && (
          <div className="bt:flex bt:flex-wrap bt:items-center bt:gap-2 bt:text-sm">
            <span>Top stage: it trades live by itself, through the risk guard.</span>
            <Button size="sm" variant="outline" disabled={busy} onClick={onDemote}>
              Back to paper
            </Button>
          </div>
        )
      )}
    </div>
  );
}
