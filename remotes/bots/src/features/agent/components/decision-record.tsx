import type { AgentDecisionRecord, AgentGuardCheck } from '@kestrel/contracts/agents';
import {
  Badge,
  Button,
  cn,
  formatDateTime,
  formatPercent,
  formatPrice,
  formatQuantity,
  formatUsdt,
} from '@kestrel/ui';
import { useState } from 'react';
import { CaptionedTable } from '../../../components/captioned-table';
import { useAgentDecision } from '../api/agent-api';
import { useLlmExchange } from '../api/agent-llm-api';
import {
  actionLabel,
  gateLabel,
  gateRule,
  guardCheckLabel,
  hoursText,
  outcomeLabel,
  probabilityText,
  statText,
} from '../lib/agent-words';
import { contributionBars, decisiveProbability } from '../lib/contributions';
import { featureLabel } from '../lib/features';
import { ReasonChips } from './reason-chips';
import { num, PassMark, QueryState, td, th } from './section';

/** How many features the chart shows before "Show all" */
const TOP_FEATURES = 10;

const figure = (v: number | null | undefined, digits = 4) =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : Number(v.toFixed(digits)).toString();

/** p against the threshold: a bar with a mark where the threshold is */
function ProbabilityMeter({ record }: { record: AgentDecisionRecord }) {
  const { side, p } = decisiveProbability(record.decision);
  const threshold = record.decision.threshold;
  const reached = p !== null && p >= threshold;
  return (
    <div className="bt:flex bt:flex-col bt:gap-1" data-probability={p ?? ''}>
      <div className="bt:flex bt:flex-wrap bt:justify-between bt:gap-2 bt:text-sm">
        <span>
          p({side}) <strong className="bt:font-mono bt:tabular-nums">{probabilityText(p)}</strong> against the
          threshold <strong className="bt:font-mono bt:tabular-nums">{probabilityText(threshold)}</strong>
        </span>
        <span className={reached ? 'bt:text-success' : 'bt:text-muted-foreground'}>
          {reached ? 'reached' : 'not reached'}
        </span>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a styled bar with marks; <meter> draws neither the same in every browser nor the mark */}
      <div
        role="meter"
        aria-label={`p(${side}) against the threshold`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={p === null ? 0 : Math.round(p * 1000) / 10}
        aria-valuetext={`${probabilityText(p)} of ${probabilityText(threshold)} needed`}
        className="bt:relative bt:h-3 bt:w-full bt:overflow-hidden bt:rounded-full bt:bg-muted"
      >
        <div
          className={cn('bt:h-full', reached ? 'bt:bg-success' : 'bt:bg-primary/60')}
          style={{ width: `${Math.min(100, Math.max(0, (p ?? 0) * 100))}%` }}
        />
        <div
          aria-hidden="true"
          className="bt:absolute bt:top-0 bt:h-full bt:w-0.5 bt:bg-foreground"
          style={{ left: `${Math.min(100, threshold * 100)}%` }}
        />
      </div>
      <p className="bt:text-xs bt:text-muted-foreground">
        p(up) {probabilityText(record.decision.pUp)} · p(down) {probabilityText(record.decision.pDown)} ·
        expected edge{' '}
        {record.decision.expectedEdge === null
          ? '—'
          : formatPercent(record.decision.expectedEdge, { digits: 3 })}{' '}
        · DI {figure(record.decision.dissimilarity, 3)} · z {figure(record.decision.predictionZ, 2)}
      </p>
    </div>
  );
}

/** The features' terms in the logit as a diverging bar chart: right pushes towards the side, left against it */
function Contributions({ record }: { record: AgentDecisionRecord }) {
  const [all, setAll] = useState(false);
  const bars = contributionBars(record.decision.contributions);
  if (bars.length === 0) {
    return (
      <p className="bt:text-sm bt:text-muted-foreground">No model was used for this bar: no contributions.</p>
    );
  }
  const shown = all ? bars : bars.slice(0, TOP_FEATURES);
  return (
    <div className="bt:flex bt:flex-col bt:gap-2">
      <ul aria-label="Feature contributions" className="bt:flex bt:flex-col bt:gap-1">
        {shown.map((b) => (
          <li
            key={b.id}
            data-feature={b.id}
            className={cn(
              'bt:grid bt:grid-cols-[minmax(0,9rem)_1fr_4.5rem] bt:items-center bt:gap-2 bt:text-xs bt:sm:grid-cols-[minmax(0,14rem)_1fr_5rem]',
              !b.available && 'bt:opacity-50',
            )}
          >
            <span className="bt:truncate" title={featureLabel(b.id)}>
              {featureLabel(b.id)}
              {!b.available && ' (missing)'}
            </span>
            <span aria-hidden="true" className="bt:relative bt:h-3 bt:w-full">
              <span className="bt:absolute bt:top-0 bt:left-1/2 bt:h-full bt:w-px bt:bg-border" />
              <span
                className={cn(
                  'bt:absolute bt:top-0 bt:h-full bt:rounded-sm',
                  b.contribution >= 0 ? 'bt:left-1/2 bt:bg-success' : 'bt:right-1/2 bt:bg-destructive',
                )}
                style={{ width: `${b.share * 50}%` }}
              />
            </span>
            <span className="bt:text-right bt:font-mono bt:tabular-nums">
              {b.contribution >= 0 ? '+' : ''}
              {b.contribution.toFixed(3)}
            </span>
          </li>
        ))}
      </ul>
      {bars.length > TOP_FEATURES && (
        <Button size="sm" variant="ghost" className="bt:self-start" onClick={() => setAll((a) => !a)}>
          {all ? `Show the top ${TOP_FEATURES}` : `Show all ${bars.length} features`}
        </Button>
      )}
      <p className="bt:text-xs bt:text-muted-foreground">
        Coefficient × scaled value of each feature in the model's logit; right (green) pushed towards the
        decision's side, left (red) against it. Missing features had no data here and count as their training
        mean.
      </p>
    </div>
  );
}

function Gates({ record }: { record: AgentDecisionRecord }) {
  if (record.decision.gates.length === 0) {
    return <p className="bt:text-sm bt:text-muted-foreground">No gate was evaluated for this bar.</p>;
  }
  return (
    <CaptionedTable label="Trust gates">
      <thead>
        <tr>
          <th className={th}>Gate</th>
          <th className={th}>Rule</th>
          <th className={cn(th, 'bt:text-right')}>Value</th>
          <th className={cn(th, 'bt:text-right')}>Limit</th>
          <th className={th}>Result</th>
        </tr>
      </thead>
      <tbody>
        {record.decision.gates.map((g) => (
          <tr key={g.gate} data-gate={g.gate} className="bt:border-t bt:border-border">
            <td className={td}>{gateLabel(g.gate)}</td>
            <td className={cn(td, 'bt:text-muted-foreground')}>{gateRule(g.gate)}</td>
            <td className={num}>{figure(g.value)}</td>
            <td className={num}>{figure(g.limit)}</td>
            <td className={td}>
              <PassMark passed={g.passed} />
            </td>
          </tr>
        ))}
      </tbody>
    </CaptionedTable>
  );
}

function GuardChecklist({ checks }: { checks: readonly AgentGuardCheck[] }) {
  return (
    <CaptionedTable label="Risk guard checks">
      <thead>
        <tr>
          <th className={th}>Check</th>
          <th className={cn(th, 'bt:text-right')}>Before → after</th>
          <th className={cn(th, 'bt:text-right')}>Limit</th>
          <th className={th}>Result</th>
          <th className={th}>Detail</th>
        </tr>
      </thead>
      <tbody>
        {checks.map((c) => (
          <tr key={c.check} data-check={c.check} className="bt:border-t bt:border-border">
            <td className={cn(td, 'bt:whitespace-nowrap')}>{guardCheckLabel(c.check)}</td>
            <td className={num}>
              {figure(c.before, 2)} → {figure(c.after, 2)}
            </td>
            <td className={num}>{figure(c.limit, 2)}</td>
            <td className={td}>
              <PassMark passed={c.passed} />
            </td>
            <td className={cn(td, 'bt:min-w-48 bt:text-muted-foreground')}>{c.detail}</td>
          </tr>
        ))}
      </tbody>
    </CaptionedTable>
  );
}

function OrdersAndFills({ record }: { record: AgentDecisionRecord }) {
  if (record.orders.length === 0 && record.fills.length === 0) {
    return <p className="bt:text-sm bt:text-muted-foreground">No order was sent for this bar.</p>;
  }
  return (
    <div className="bt:flex bt:flex-col bt:gap-3">
      {record.orders.length > 0 && (
        <CaptionedTable label="Orders of this decision">
          <thead>
            <tr>
              <th className={th}>Side</th>
              <th className={th}>Type</th>
              <th className={cn(th, 'bt:text-right')}>Quantity</th>
              <th className={cn(th, 'bt:text-right')}>Price</th>
              <th className={th}>Status</th>
              <th className={th}>Client id</th>
            </tr>
          </thead>
          <tbody>
            {record.orders.map((o) => (
              <tr key={o.clientOrderId} className="bt:border-t bt:border-border">
                <td className={td}>
                  {o.side}
                  {o.reduceOnly ? ' (reduce-only)' : ''}
                </td>
                <td className={td}>{o.type}</td>
                <td className={num}>{o.quantity}</td>
                <td className={num}>{o.price ?? 'market'}</td>
                <td className={td}>{o.status}</td>
                <td className={cn(td, 'bt:font-mono bt:text-xs')}>{o.clientOrderId}</td>
              </tr>
            ))}
          </tbody>
        </CaptionedTable>
      )}
      {record.fills.length > 0 && (
        <CaptionedTable label="Fills of this decision">
          <thead>
            <tr>
              <th className={th}>Time (UTC)</th>
              <th className={th}>Side</th>
              <th className={cn(th, 'bt:text-right')}>Quantity</th>
              <th className={cn(th, 'bt:text-right')}>Price</th>
              <th className={cn(th, 'bt:text-right')}>Fee</th>
            </tr>
          </thead>
          <tbody>
            {record.fills.map((f) => (
              <tr key={`${f.clientOrderId}-${f.time}-${f.quantity}`} className="bt:border-t bt:border-border">
                <td className={cn(td, 'bt:whitespace-nowrap')}>{formatDateTime(f.time)}</td>
                <td className={td}>{f.side}</td>
                <td className={num}>{formatQuantity(f.quantity)}</td>
                <td className={num}>{formatPrice(f.price)}</td>
                <td className={num}>{formatUsdt(f.fee)}</td>
              </tr>
            ))}
          </tbody>
        </CaptionedTable>
      )}
    </div>
  );
}

/** The review's prompt and reply as kept, read when the reader opens them */
function Exchange({
  agentId,
  record,
  exchangeId,
}: {
  agentId: string;
  record: AgentDecisionRecord;
  exchangeId: string;
}) {
  const exchange = useLlmExchange(agentId, exchangeId, record.time, true);
  return (
    <QueryState query={exchange} what="the prompt and reply">
      {() =>
        exchange.data ? (
          <div className="bt:flex bt:flex-col bt:gap-2">
            <h5 className="bt:text-xs bt:font-medium bt:text-muted-foreground">Prompt</h5>
            <pre className="bt:max-h-64 bt:overflow-auto bt:rounded bt:bg-muted bt:p-2 bt:text-xs bt:whitespace-pre-wrap bt:break-words">
              {JSON.stringify(exchange.data.request, null, 2)}
            </pre>
            <h5 className="bt:text-xs bt:font-medium bt:text-muted-foreground">Reply</h5>
            <pre className="bt:max-h-64 bt:overflow-auto bt:rounded bt:bg-muted bt:p-2 bt:text-xs bt:whitespace-pre-wrap bt:break-words">
              {JSON.stringify(exchange.data.response, null, 2)}
            </pre>
          </div>
        ) : (
          <p className="bt:text-xs bt:text-muted-foreground">
            The kept exchange {exchangeId} was not found near this decision.
          </p>
        )
      }
    </QueryState>
  );
}

function Review({ agentId, record }: { agentId: string; record: AgentDecisionRecord }) {
  const [open, setOpen] = useState(false);
  const review = record.review;
  if (!review) {
    return (
      <p className="bt:text-sm bt:text-muted-foreground">
        No LLM review: none is configured, or this decision was not an entry (exits and holds are never
        reviewed).
      </p>
    );
  }
  return (
    <details
      className="bt:rounded-md bt:border bt:border-border bt:p-3 bt:text-sm"
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className="bt:cursor-pointer bt:font-medium">
        LLM review: {review.verdict}
        {review.verdict === 'reduce' ? ` to ${formatPercent(review.sizeMultiplier, { digits: 0 })}` : ''}
        {review.error ? ' (failed)' : ''}
      </summary>
      <dl className="bt:mt-2 bt:grid bt:grid-cols-1 bt:gap-x-4 bt:gap-y-1 bt:sm:grid-cols-[auto_1fr]">
        <dt className="bt:text-muted-foreground">Rationale</dt>
        <dd className="bt:break-words">{review.rationale || '—'}</dd>
        {review.error && (
          <>
            <dt className="bt:text-muted-foreground">Error</dt>
            <dd className="bt:text-destructive">{review.error}</dd>
          </>
        )}
        <dt className="bt:text-muted-foreground">Cited features</dt>
        <dd>{review.citedFeatures.length > 0 ? review.citedFeatures.map(featureLabel).join(', ') : '—'}</dd>
        <dt className="bt:text-muted-foreground">Model</dt>
        <dd>{review.model || '—'}</dd>
        <dt className="bt:text-muted-foreground">Tokens</dt>
        <dd className="bt:font-mono bt:tabular-nums">
          {review.promptTokens} in · {review.completionTokens} out · {Math.round(review.latencyMs)} ms
        </dd>
        <dt className="bt:text-muted-foreground">Exchange</dt>
        <dd className="bt:font-mono bt:text-xs bt:break-all">{review.exchangeId}</dd>
      </dl>
      {open && review.exchangeId && (
        <div className="bt:mt-3">
          <Exchange agentId={agentId} record={record} exchangeId={review.exchangeId} />
        </div>
      )}
    </details>
  );
}

function Part({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-2">
      <h4 className="bt:text-sm bt:font-semibold">{title}</h4>
      {children}
    </div>
  );
}

/** Everything about one closed bar: what the model saw and decided, the gates, the guard, the orders, the review */
export function DecisionRecordView({ agentId, record }: { agentId: string; record: AgentDecisionRecord }) {
  const d = record.decision;
  return (
    <article
      aria-label={`Decision record of the bar ${formatDateTime(record.barTime)} UTC`}
      className="bt:flex bt:min-w-0 bt:flex-col bt:gap-4"
    >
      <header className="bt:flex bt:flex-col bt:gap-2">
        <div className="bt:flex bt:flex-wrap bt:items-center bt:gap-2">
          <h3 className="bt:text-base bt:font-semibold">
            {actionLabel(record.action)} · bar {formatDateTime(record.barTime)} UTC
          </h3>
          <Badge
            variant={
              record.outcome === 'executed'
                ? 'success'
                : record.outcome === 'refused' || record.outcome === 'failed'
                  ? 'destructive'
                  : 'outline'
            }
          >
            {outcomeLabel(record.outcome)}
          </Badge>
        </div>
        <p className="bt:text-sm">{record.note}</p>
        <ReasonChips codes={record.reasonCodes} />
        <p className="bt:text-xs bt:text-muted-foreground">
          Stage {record.stage} · position {formatQuantity(record.positionQty)}
          {record.price !== null ? ` at ${formatPrice(record.price)}` : ''} · size{' '}
          {formatPercent(record.sizeFraction, { digits: 1 })} of budget
          {d.stopPct !== null ? ` · stop ${formatPercent(d.stopPct, { digits: 2 })} away` : ''} · model{' '}
          <span className="bt:font-mono">{d.modelId ? d.modelId.slice(0, 12) : 'none'}</span>
          {d.modelAgeHours !== null ? ` (${hoursText(d.modelAgeHours)} old)` : ''} · snapshot{' '}
          <span className="bt:font-mono">{d.snapshotHash.slice(0, 12)}</span>
        </p>
      </header>
      <Part title="Probability against the threshold">
        <ProbabilityMeter record={record} />
      </Part>
      <Part title="Feature contributions">
        <Contributions record={record} />
      </Part>
      <Part title="Trust gates">
        <Gates record={record} />
      </Part>
      <Part title="Risk guard: before → after">
        {record.guard ? (
          <>
            <p className="bt:text-sm">
              {record.guard.exit
                ? 'An exit: never refused, its checks recorded as measured'
                : record.guard.passed
                  ? 'Every check passed'
                  : 'Refused'}
              {record.guard.proposedQty !== null
                ? `: ${record.guard.proposedQty > 0 ? 'buy' : 'sell'} ${formatQuantity(Math.abs(record.guard.proposedQty))}`
                : ''}
              {record.guard.price !== null ? ` at ${formatPrice(record.guard.price)}` : ''}
            </p>
            <GuardChecklist checks={record.guard.checks} />
          </>
        ) : (
          <p className="bt:text-sm bt:text-muted-foreground">
            Nothing was proposed, so the guard had nothing to check.
          </p>
        )}
      </Part>
      <Part title="Orders and fills">
        <OrdersAndFills record={record} />
      </Part>
      <Part title="LLM review">
        <Review agentId={agentId} record={record} />
      </Part>
      <p className="bt:text-xs bt:text-muted-foreground">
        Recorded {formatDateTime(record.time)} UTC · {statText(d.threshold, 2)} threshold
      </p>
    </article>
  );
}

/** Reads the record of the decision the timeline opened */
export function DecisionRecordPanel({ agentId, decisionId }: { agentId: string; decisionId: string }) {
  const record = useAgentDecision(agentId, decisionId);
  return (
    <QueryState query={record} what="the decision record">
      {() => (record.data ? <DecisionRecordView agentId={agentId} record={record.data} /> : null)}
    </QueryState>
  );
}
