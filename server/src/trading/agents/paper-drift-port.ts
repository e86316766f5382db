import type { AgentEvidence } from '@kestrel/contracts/agents';

/** An agent's paper (or live) fills against a backtest of the same period, as its evidence shows them */
export type PaperDriftSource = (userId: string, agentId: string) => Promise<AgentEvidence['paperDrift']>;

/**
 * Where the drift report (a view, on the floor above) plugs into the agents' evidence: the agents plugin owns
 * this port and hands it to its service at construction; the drift plugin provides the source at its own. Without
 * a source the evidence has no drift (null), as when the report has not run
 */
export class PaperDriftPort {
  private source: PaperDriftSource | undefined;

  provide(source: PaperDriftSource): void {
    if (this.source) throw new Error('The agents already have a paper drift source');
    this.source = source;
  }

  read(userId: string, agentId: string): Promise<AgentEvidence['paperDrift']> {
    return this.source ? this.source(userId, agentId) : Promise.resolve(null);
  }
}
