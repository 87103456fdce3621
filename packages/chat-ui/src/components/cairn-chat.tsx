import { useCallback, useEffect, useMemo, useState } from 'react';
import { CairnClient } from '../client/cairn-client.js';
import type { FetchLike } from '../client/http.js';
import { rememberAgentId, rememberedAgentId } from '../session/stored-session.js';
import { useAgentSession } from '../session/use-agent-session.js';
import { useRemote } from '../session/use-remote.js';
import { latestRun, pendingApprovals, runsOf } from '../state/conversation.js';
import type { AgentInfo } from '../wire-types.js';
import { AgentList } from './agent-list.js';
import { ApprovalPrompt } from './approval-prompt.js';
import { Composer } from './composer.js';
import { classes, errorText } from './format.js';
import { MessageList } from './message-list.js';
import { ConnectionBadge, RunStatusLine, UsageDisplay } from './status-bar.js';

export interface CairnChatProps {
  /** The Cairn server's origin, e.g. `http://127.0.0.1:4780`. */
  serverUrl: string;
  /** The server's bearer token. */
  token: string;
  /** Workspace of agents created here; default the server's `defaultCwd`. */
  cwd?: string;
  /** The agent to open. Without it, the one in `?agent=` or this tab's sessionStorage, else none. */
  agentId?: string;
  /** Called when the user opens another agent, starts a new one (undefined), or a send created one. */
  onAgentChange?: (agentId: string | undefined) => void;
  /** Hide the agent list (an embed that shows one agent). */
  hideAgentList?: boolean;
  /** A fetch of your own (proxies, tests). */
  fetch?: FetchLike;
  className?: string;
}

/** The chat: agents on the side, the conversation, approvals, and the message box. */
export function CairnChat(props: CairnChatProps) {
  const { serverUrl, token, cwd, onAgentChange, hideAgentList, fetch: fetchImpl, className } = props;
  const client = useMemo(() => new CairnClient({ baseUrl: serverUrl, token, ...(fetchImpl ? { fetch: fetchImpl } : {}) }), [serverUrl, token, fetchImpl]);
  const [ownAgentId, setOwnAgentId] = useState<string | undefined>(() => props.agentId ?? rememberedAgentId());
  const agentId = props.agentId ?? ownAgentId;
  const [agentsKey, setAgentsKey] = useState(0);
  const [showAgents, setShowAgents] = useState(false);

  const selectAgent = useCallback(
    (next: string | undefined) => {
      setOwnAgentId(next);
      rememberAgentId(next);
      setShowAgents(false);
      onAgentChange?.(next);
    },
    [onAgentChange],
  );
  const onAgentCreated = useCallback(
    (agent: AgentInfo) => {
      selectAgent(agent.agentId);
      setAgentsKey((key) => key + 1);
    },
    [selectAgent],
  );

  // An agent remembered by this tab that is gone: start anew rather than show a dead conversation.
  const controlled = props.agentId !== undefined;
  const onAgentMissing = useCallback(() => {
    if (!controlled) selectAgent(undefined);
  }, [controlled, selectAgent]);
  const session = useAgentSession({ client, agentId, ...(cwd ? { cwd } : {}), onAgentCreated, onAgentMissing });
  const { conversation, agent } = session;
  const runs = runsOf(conversation);
  const latest = latestRun(conversation);
  const running = runs.some((run) => run.status === 'running' && !run.ended);
  const pending = pendingApprovals(conversation);

  const agents = useRemote(hideAgentList ? undefined : () => client.listAgents({ limit: 50 }), `${agentsKey}:${session.endedRuns}:${client.baseUrl}`);
  const models = useRemote(() => client.listModels(), client);
  const usage = useRemote(agentId ? () => client.agentUsage(agentId) : undefined, `${agentId}:${session.endedRuns}`);

  const [mode, setMode] = useState('agent');
  const [model, setModel] = useState('');
  // The pickers start from the opened agent's own settings.
  useEffect(() => {
    setMode(agent?.mode ?? 'agent');
    setModel('');
  }, [agent]);
  useEffect(() => {
    if (latest?.mode) setMode(latest.mode);
  }, [latest?.mode]);

  const onSend = (text: string) => session.send({ text, mode, ...(model ? { model } : {}) });
  const liveUsage = latest && latest.status === 'running' ? latest.usage : undefined;
  const error = session.error ?? agents.error;

  return (
    <div className={classes('cairn-chat', hideAgentList && 'cairn-chat-single', className)} data-testid="cairn-chat">
      {hideAgentList ? null : (
        <aside className={showAgents ? 'cairn-sidebar cairn-sidebar-open' : 'cairn-sidebar'}>
          <AgentList agents={agents.data?.items ?? []} selectedId={agentId} loading={agents.loading} onSelect={selectAgent} onNew={() => selectAgent(undefined)} />
        </aside>
      )}
      <main className="cairn-main">
        <header className="cairn-header">
          {hideAgentList ? null : (
            <button type="button" className="cairn-button cairn-agents-toggle" aria-expanded={showAgents} onClick={() => setShowAgents((shown) => !shown)}>
              Agents
            </button>
          )}
          <h2 className="cairn-title">{agent?.name ?? (agentId ? 'Loading…' : 'New agent')}</h2>
          <RunStatusLine run={latest} />
          <UsageDisplay {...(usage.data ? { usage: usage.data } : {})} {...(liveUsage ? { live: liveUsage } : {})} />
          <ConnectionBadge state={session.connection} />
        </header>
        {error ? (
          <div className="cairn-error" role="alert">
            <span>{errorText(error)}</span>
            <button type="button" className="cairn-button" onClick={session.clearError} aria-label="Dismiss the error">
              ×
            </button>
          </div>
        ) : null}
        <MessageList runs={runs} busy={session.sending} running={running} onApprovePlan={(runId) => void session.approvePlan(runId)} empty={session.loading ? 'Loading the conversation…' : 'Send a message to start.'} />
        {pending.length ? (
          <section className="cairn-approvals" aria-label="Requests waiting for your answer">
            {pending.map((approval) => (
              <ApprovalPrompt key={`${approval.runId}:${approval.callId}`} approval={approval} onAnswer={session.answer} />
            ))}
          </section>
        ) : null}
        <Composer
          sending={session.sending}
          running={running}
          mode={mode}
          onModeChange={setMode}
          models={models.data ?? []}
          model={model}
          onModelChange={setModel}
          onSend={onSend}
          onCancel={() => void session.cancel()}
        />
      </main>
    </div>
  );
}
