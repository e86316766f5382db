import type { AgentStatus } from '@kestrel/contracts/agents';
import { hoursText, latchCauseLabel, stageLabel } from './agent-words';

export type AgentTone = 'ok' | 'warn' | 'bad' | 'idle';

/** The agent's state in one line, and why: the first thing that explains what it is (not) doing now */
export function agentStateLine(status: AgentStatus): { text: string; tone: AgentTone } {
  const { bot, latch, training, model } = status;
  if (latch) return { text: `${latchCauseLabel(latch.cause)}, latched: ${latch.reason}`, tone: 'bad' };
  if (training.state === 'training') return { text: 'Training a model', tone: 'warn' };
  if (bot.state === 'error')
    return { text: `Stopped by a fault: ${bot.stopReason ?? 'no reason recorded'}`, tone: 'bad' };
  if (training.state === 'failed' && !model) {
    return { text: `Training failed: ${training.lastError ?? 'no reason recorded'}`, tone: 'bad' };
  }
  if (bot.state === 'starting') return { text: 'Starting', tone: 'warn' };
  if (bot.state === 'stopping') return { text: 'Stopping', tone: 'warn' };
  if (bot.state === 'running') {
    if (!model) return { text: 'Running, no entries: it has no model yet', tone: 'warn' };
    if (model.stale) {
      return {
        text: `Running, no new entries: its model is ${hoursText(model.ageHours)} old (expiry ${hoursText(model.expiryHours)})`,
        tone: 'warn',
      };
    }
    return { text: `Running: it decides on every closed ${bot.interval} bar`, tone: 'ok' };
  }
  if (bot.stopReason) return { text: `Stopped: ${bot.stopReason}`, tone: 'idle' };
  return { text: model ? 'Stopped: trained, never started' : 'Stopped: not trained yet', tone: 'idle' };
}

/** What a latch means for the agent now, after its reason */
export function latchSentence(latch: NonNullable<AgentStatus['latch']>): string {
  const demoted = latch.fromStage === 'live_approval' || latch.fromStage === 'live_auto';
  return `${latch.reason}. ${demoted ? `It was demoted from ${stageLabel(latch.fromStage)} to paper and it` : 'It'} will not start until a person resets the latch.`;
}
