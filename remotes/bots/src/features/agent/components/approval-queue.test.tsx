import type { AgentApproval } from '@kestrel/contracts/agents';
import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApprovalQueue } from './approval-queue';

const NOW = Date.UTC(2026, 10, 20, 12);
const approval = (overrides: Partial<AgentApproval>): AgentApproval => ({
  id: '1',
  agentId: '00000000-0000-4000-8000-000000000001',
  decisionId: '9',
  action: 'enter_long',
  sizeFraction: 0.25,
  state: 'pending',
  createdAt: NOW - 10_000,
  expiresAt: NOW + 125_000,
  decidedAt: null,
  note: null,
  ...overrides,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the approval queue', () => {
  it('counts down each pending proposal and stops offering it once its time is up; decided ones say what became of them', () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date', 'setInterval', 'clearInterval'] });
    const onDecide = vi.fn();
    render(
      <ApprovalQueue
        approvals={[
          approval({}),
          approval({ id: '2', state: 'expired', note: 'Expired unanswered', decidedAt: NOW - 5_000 }),
        ]}
        busyId={null}
        onDecide={onDecide}
      />,
    );
    const [pending, expired] = within(screen.getByRole('list', { name: 'Proposals' })).getAllByRole(
      'listitem',
    );
    expect(within(pending as HTMLElement).getByText('expires in 2:05')).toBeTruthy();
    within(pending as HTMLElement)
      .getByRole('button', { name: 'Approve' })
      .click();
    expect(onDecide).toHaveBeenCalledWith('1', 'approve');
    expect(within(expired as HTMLElement).getByText('Expired unanswered')).toBeTruthy();
    expect(within(expired as HTMLElement).queryByRole('button')).toBeNull();

    act(() => vi.advanceTimersByTime(65_000));
    expect(within(pending as HTMLElement).getByText('expires in 1:00')).toBeTruthy();
    act(() => vi.advanceTimersByTime(61_000));
    expect(within(pending as HTMLElement).getByText('expired')).toBeTruthy();
    expect(within(pending as HTMLElement).queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});
