import '../../styles.css';
import type { AgentDecisionSummary, AgentStage, AgentStatus } from '@kestrel/contracts/agents';
import { ApiError } from '@kestrel/shared-runtime';
import { RemotePage, useKestrelRuntime, useTradingEnvironment } from '@kestrel/shared-runtime/react';
import { Link, useParams, useSearchParams } from '@kestrel/shared-runtime/router';
import { Button, buttonVariants, Card, CardContent, EmptyState, Spinner } from '@kestrel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type CommandWords, ConfirmCommand } from '../../components/confirm-command';
import { paths } from '../../config/paths';
import {
  AGENT_DECISIONS_PAGE,
  AGENT_REFRESH_MS,
  type AgentCommand,
  agentKeys,
  getAgentDecisions,
  useAgentApprovals,
  useAgentCommand,
  useAgentDecisions,
  useAgentEvidence,
  useAgentHealth,
  useAgentStatus,
} from '../../features/agent/api/agent-api';
import { useAgentLlm } from '../../features/agent/api/agent-llm-api';
import { AgentStatusView } from '../../features/agent/components/agent-status';
import { ApprovalQueue } from '../../features/agent/components/approval-queue';
import { DecisionRecordPanel } from '../../features/agent/components/decision-record';
import { DecisionTimeline } from '../../features/agent/components/decision-timeline';
import { EvidenceView } from '../../features/agent/components/evidence-panel';
import { HealthView } from '../../features/agent/components/health-panel';
import { LlmSettingsView, llmSpendText } from '../../features/agent/components/llm-settings';
import { RiskPanel } from '../../features/agent/components/risk-panel';
import { AgentSection, QueryState } from '../../features/agent/components/section';
import { useAgentNotices } from '../../features/agent/hooks/use-agent-notices';
import { stageLabel } from '../../features/agent/lib/agent-words';
import { useBotAction } from '../../features/bots/api/bot-actions';
import { BotStateBadge } from '../../features/bots/components/bot-state-badge';
import {
  actionWords,
  isIdle,
  isLive,
  type LiveAccountWords,
  liveAccountWords,
} from '../../features/bots/lib/bot-words';

/** An id the server does not know for this user (or not a valid id at all): the same "not found", never more */
const isNotFound = (error: Error | null) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

type Pending =
  | { kind: 'command'; command: AgentCommand; words: CommandWords }
  | { kind: 'bot'; action: 'start' | 'stop'; words: CommandWords };

function killWords(status: AgentStatus): CommandWords {
  const { bot } = status;
  return {
    title: `Kill ${bot.name}?`,
    body: `It stops at once: its open orders are canceled, ${bot.mode === 'live' ? 'its real position on' : 'its paper position on'} ${bot.symbol} is closed with reduce-only orders, it is demoted to paper, and it stays latched (it cannot start) until you reset it.`,
    confirm: 'Kill agent',
    destructive: true,
  };
}

const RESET_WORDS: CommandWords = {
  title: 'Reset the latch?',
  body: 'The agent may be started again (on paper: a kill demoted it). It does not start by itself.',
  confirm: 'Reset latch',
  destructive: false,
};

function stageWords(status: AgentStatus, stage: AgentStage, where: LiveAccountWords): CommandWords {
  const live = stage === 'live_approval' || stage === 'live_auto';
  return {
    title: `Move ${status.bot.name} to ${stageLabel(stage)}?`,
    body: live
      ? `${stage === 'live_auto' ? 'It will place real orders by itself' : 'It will propose real orders that wait for your approval'} with ${where.account} (${where.money}) on ${status.bot.symbol}, through the risk guard. The server checks the gates again and refuses if one fails.`
      : 'It goes back to paper trading: simulated orders on live prices, no real ones.',
    confirm: `Move to ${stageLabel(stage)}`,
    destructive: live && where.real,
  };
}

/** /kestrel/:agentId: one AI agent, inspectable — what it is doing and why, every decision, its evidence */
export default function AgentPage() {
  const { agentId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const { api, notices } = useKestrelRuntime();
  const { targets } = useTradingEnvironment();
  // The agent's environment as the server reaches it: only mainnet is real money
  const targetOf = (bot: { environment: string }) => targets?.find((t) => t.environment === bot.environment);
  useAgentNotices(agentId);
  const status = useAgentStatus(agentId);
  const data = status.data;
  const running = data ? isLive(data.bot.state) : false;
  const decisions = useAgentDecisions(agentId, running, status.isSuccess);
  const evidence = useAgentEvidence(agentId, status.isSuccess);
  const health = useAgentHealth(agentId, status.isSuccess);
  const approvals = useAgentApprovals(
    agentId,
    data?.stage === 'live_approval' || (data?.pendingApprovals ?? 0) > 0,
    status.isSuccess,
  );
  const llm = useAgentLlm(agentId, running ? AGENT_REFRESH_MS * 6 : false, status.isSuccess);
  const command = useAgentCommand(agentId);
  const botAction = useBotAction();
  const [pending, setPending] = useState<Pending | null>(null);
  const [older, setOlder] = useState<AgentDecisionSummary[]>([]);
  const [olderState, setOlderState] = useState<{ loading: boolean; done: boolean }>({
    loading: false,
    done: false,
  });
  const recordRef = useRef<HTMLDivElement>(null);
  const queryClient = useQueryClient();
  // A new model (or a finished training) comes with new evidence and health: read them again
  const trainedMark = `${data?.model?.id ?? ''}:${data?.training.finishedAt ?? ''}`;
  useEffect(() => {
    if (trainedMark === ':') return;
    void queryClient.invalidateQueries({ queryKey: agentKeys.evidence(agentId) });
    void queryClient.invalidateQueries({ queryKey: agentKeys.health(agentId) });
  }, [trainedMark, agentId, queryClient]);
  const selected = search.get('decision');

  const send = (c: AgentCommand) => command.mutateAsync(c);
  const sendNow = (c: AgentCommand, failure: string) =>
    command.mutate(c, {
      onError: (error) =>
        notices.toast({ title: failure, description: error.message, variant: 'destructive' }),
    });

  if (isNotFound(status.error)) {
    return (
      <RemotePage
        remote="bots"
        title="AI agent"
        description="An agent of yours, its decisions and its evidence."
      >
        <EmptyState
          title="Agent not found"
          description={`You have no agent with the id "${agentId}". It may have been deleted, or the link is wrong.`}
          action={
            <Link to={paths.activeBots.getHref()} className={buttonVariants({ variant: 'outline' })}>
              Go to active bots
            </Link>
          }
        />
      </RemotePage>
    );
  }

  const list = [
    ...(decisions.data ?? []),
    ...older.filter((o) => !decisions.data?.some((d) => d.id === o.id)),
  ];
  const select = (id: string) => {
    const next = new URLSearchParams(search);
    next.set('decision', id);
    setSearch(next, { replace: true });
    // On a phone the record sits under the timeline: bring it into view
    requestAnimationFrame(() => recordRef.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' }));
  };
  const loadOlder = async () => {
    const last = list[list.length - 1];
    if (!last) return;
    setOlderState({ loading: true, done: false });
    try {
      const page = await getAgentDecisions(api, agentId, { before: last.barTime });
      setOlder((o) => [...o, ...page]);
      setOlderState({ loading: false, done: page.length < AGENT_DECISIONS_PAGE });
    } catch (error) {
      setOlderState({ loading: false, done: false });
      notices.toast({
        title: 'Older decisions could not be loaded',
        description: error instanceof Error ? error.message : String(error),
        variant: 'destructive',
      });
    }
  };

  const bot = data?.bot;
  const training = data?.training.state === 'training';
  const busy = command.isPending || botAction.isPending;
  // The server refuses an agent without a model (it would decide nothing until its first training)
  const untrained = data?.model === null;
  const actions = data && bot && (
    <>
      <Button
        size="sm"
        variant="outline"
        disabled={busy || training}
        onClick={() => sendNow({ kind: 'train' }, 'Training could not start')}
      >
        {training ? 'Training…' : 'Train now'}
      </Button>
      {isIdle(bot.state) && (
        <Button
          size="sm"
          disabled={busy || data.latch !== null || untrained}
          title={data.latch ? 'Reset the latch first' : untrained ? 'Train it first' : undefined}
          aria-describedby={untrained && !data.latch ? 'agent-start-needs-model' : undefined}
          onClick={() =>
            setPending({ kind: 'bot', action: 'start', words: actionWords('start', bot, targetOf(bot)) })
          }
        >
          Start
        </Button>
      )}
      {isIdle(bot.state) && untrained && !data.latch && (
        <span id="agent-start-needs-model" className="bt:self-center bt:text-xs bt:text-muted-foreground">
          {training ? 'Start once the training has finished' : 'Train it first: it starts with a model'}
        </span>
      )}
      {isLive(bot.state) && (
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() =>
            setPending({ kind: 'bot', action: 'stop', words: actionWords('stop', bot, targetOf(bot)) })
          }
        >
          Stop
        </Button>
      )}
      <Button
        size="sm"
        variant="destructive"
        disabled={busy || data.latch !== null}
        title={data.latch ? 'Already killed and latched' : undefined}
        onClick={() => setPending({ kind: 'command', command: { kind: 'kill' }, words: killWords(data) })}
      >
        Kill
      </Button>
    </>
  );

  return (
    <RemotePage
      remote="bots"
      title={bot?.name ?? 'AI agent'}
      description={
        bot ? (
          <span className="bt:inline-flex bt:flex-wrap bt:items-center bt:gap-2">
            <span>
              AI agent · {bot.symbol} {bot.interval} · {bot.leverage}× · {bot.mode} · {stageLabel(data.stage)}
            </span>
            <BotStateBadge state={bot.state} />
          </span>
        ) : (
          'An agent of yours, its decisions and its evidence.'
        )
      }
      actions={actions}
    >
      {status.isPending ? (
        <Card>
          <CardContent>
            <Spinner label="Loading the agent…" />
          </CardContent>
        </Card>
      ) : status.error || !data ? (
        <div
          role="alert"
          className="bt:flex bt:flex-wrap bt:items-center bt:gap-3 bt:text-sm bt:text-destructive"
        >
          The agent could not be loaded: {status.error?.message}
          <Button size="sm" variant="outline" onClick={() => void status.refetch()}>
            Retry
          </Button>
        </div>
      ) : (
        <>
          <AgentSection id="status" title="Status">
            <AgentStatusView
              status={data}
              llmSpend={llmSpendText(llm.data)}
              busy={busy}
              onReset={() => setPending({ kind: 'command', command: { kind: 'reset' }, words: RESET_WORDS })}
              onPromote={() => {
                if (!data.promotion) return;
                const stage = data.promotion.to;
                setPending({
                  kind: 'command',
                  command: { kind: 'stage', stage },
                  words: stageWords(data, stage, liveAccountWords(targetOf(data.bot))),
                });
              }}
              onDemote={() =>
                setPending({
                  kind: 'command',
                  command: { kind: 'stage', stage: 'paper' },
                  words: stageWords(data, 'paper', liveAccountWords(targetOf(data.bot))),
                })
              }
            />
          </AgentSection>

          {(data.stage === 'live_approval' ||
            data.pendingApprovals > 0 ||
            (approvals.data?.length ?? 0) > 0) && (
            <AgentSection
              id="approvals"
              title="Approval queue"
              description="Entries the agent proposes in the stage Live with approval. Approved ones still pass the risk guard."
            >
              <QueryState query={approvals} what="the approval queue">
                {() => (
                  <ApprovalQueue
                    approvals={approvals.data ?? []}
                    busyId={command.isPending && command.variables?.kind !== 'train' ? 'busy' : null}
                    onDecide={(approvalId, kind) =>
                      sendNow(
                        { kind, approvalId },
                        kind === 'approve' ? 'Approval failed' : 'Rejection failed',
                      )
                    }
                  />
                )}
              </QueryState>
            </AgentSection>
          )}

          <div className="bt:grid bt:grid-cols-1 bt:gap-6 bt:xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <AgentSection
              id="decisions"
              title="Decisions"
              description="One per closed bar, holds included, each with its reasons. Open one to read its record."
            >
              <QueryState query={decisions} what="the decisions">
                {() =>
                  list.length === 0 ? (
                    <p className="bt:text-sm bt:text-muted-foreground">
                      No decisions yet: a running agent records one on every closed {data.bot.interval} bar.
                    </p>
                  ) : (
                    <DecisionTimeline
                      decisions={list}
                      selected={selected}
                      onSelect={select}
                      hasOlder={!olderState.done && list.length >= AGENT_DECISIONS_PAGE}
                      loadingOlder={olderState.loading}
                      onOlder={() => void loadOlder()}
                    />
                  )
                }
              </QueryState>
            </AgentSection>
            <div ref={recordRef} className="bt:min-w-0 bt:scroll-mt-4">
              <AgentSection id="record" title="Decision record">
                {selected ? (
                  <DecisionRecordPanel agentId={agentId} decisionId={selected} />
                ) : (
                  <p className="bt:text-sm bt:text-muted-foreground">
                    Open a decision to see what the model saw (feature contributions), its probability against
                    the threshold, the trust gates, every risk check before → after, the orders and fills, and
                    the LLM review.
                  </p>
                )}
              </AgentSection>
            </div>
          </div>

          <AgentSection id="risk" title="Risk against limits">
            <RiskPanel lines={data.risk} />
          </AgentSection>

          <AgentSection
            id="evidence"
            title="Evidence"
            description="Walk-forward out-of-sample results against buy-and-hold and random entries. In-sample figures are greyed: they are not evidence."
          >
            <QueryState query={evidence} what="the evidence">
              {() => (evidence.data ? <EvidenceView evidence={evidence.data} model={data.model} /> : null)}
            </QueryState>
          </AgentSection>

          <AgentSection id="health" title="Model health">
            <QueryState query={health} what="the model's health">
              {() => (health.data ? <HealthView health={health.data} /> : null)}
            </QueryState>
          </AgentSection>

          <AgentSection id="llm" title="LLM reviewer">
            <QueryState query={llm} what="the reviewer's settings">
              {() => (llm.data ? <LlmSettingsView agentId={agentId} llm={llm.data} /> : null)}
            </QueryState>
          </AgentSection>
        </>
      )}
      {data && (
        <ConfirmCommand
          words={pending?.words ?? null}
          onClose={() => setPending(null)}
          onConfirm={async () => {
            if (!pending) return;
            if (pending.kind === 'bot') await botAction.mutateAsync({ id: agentId, action: pending.action });
            else await send(pending.command);
          }}
        />
      )}
    </RemotePage>
  );
}
