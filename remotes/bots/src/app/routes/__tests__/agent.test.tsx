import { MemoryRouter, Route, Routes } from '@kestrel/shared-runtime/router';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AgentPage from '../agent';

describe('the AI agent page', () => {
  it('names the agent from the route', () => {
    render(
      <MemoryRouter initialEntries={['/kestrel/agent-42']}>
        <Routes>
          <Route path="/kestrel/:agentId" element={<AgentPage />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'AI agent' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'AI agent' }).textContent).toContain('Agent agent-42');
  });
});
