import { MemoryRouter, Route, Routes } from '@kestrel/shared-runtime/router';
import { render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import ActiveBotsPage from '../active-bots';
import AgentPage from '../agent';
import BotHubPage from '../bot-hub';
import CreateBotPage from '../create-bot';

const pages: [string, ComponentType, string][] = [
  ['Bot hub', BotHubPage, 'No bots yet'],
  ['Active bots', ActiveBotsPage, 'No bots running'],
  ['Create bot', CreateBotPage, 'Creating bots is not available yet'],
];

describe.each(pages)('the %s page', (title, Page, empty) => {
  it('shows its title and says what it will hold, with no placeholder and no figures', () => {
    render(<Page />);
    const region = screen.getByRole('region', { name: title });
    expect(region.getAttribute('data-remote')).toBe('bots');
    expect(screen.getByRole('heading', { level: 2, name: empty })).toBeTruthy();
    expect(region.textContent).not.toContain('Rendered by');
    expect(region.textContent).not.toMatch(/\d/);
  });
});

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
