import type { AgentInfo } from '../wire-types.js';

export interface AgentListProps {
  agents: AgentInfo[];
  selectedId?: string;
  loading: boolean;
  onSelect: (agentId: string) => void;
  onNew: () => void;
}

const statusLabel: Record<string, string> = { running: 'running', finished: 'idle', error: 'failed' };

/** The server's agents, newest first (archived ones left out): pick one to resume it, or start anew. */
export function AgentList({ agents, selectedId, loading, onSelect, onNew }: AgentListProps) {
  const shown = agents.filter((agent) => !agent.archived);
  return (
    <nav className="cairn-agents" aria-label="Agents">
      <button type="button" className="cairn-button cairn-agents-new" data-testid="new-agent" onClick={onNew} aria-pressed={selectedId === undefined}>
        + New agent
      </button>
      <ul className="cairn-agent-list" data-testid="agent-list" aria-busy={loading}>
        {shown.map((agent) => (
          <li key={agent.agentId}>
            <button
              type="button"
              className="cairn-agent-item"
              data-testid="agent-item"
              data-agent-id={agent.agentId}
              data-status={agent.status ?? 'new'}
              aria-current={agent.agentId === selectedId ? 'true' : undefined}
              onClick={() => onSelect(agent.agentId)}
            >
              <span className="cairn-agent-name">{agent.name}</span>
              {agent.summary ? <span className="cairn-agent-summary">{agent.summary}</span> : null}
              <span className="cairn-agent-meta">
                {agent.mode}
                {agent.status ? ` · ${statusLabel[agent.status] ?? agent.status}` : ''}
              </span>
            </button>
          </li>
        ))}
        {!loading && shown.length === 0 ? <li className="cairn-muted cairn-agents-empty">No agents yet.</li> : null}
      </ul>
    </nav>
  );
}
