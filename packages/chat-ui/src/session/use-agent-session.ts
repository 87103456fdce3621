import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { CairnApiError } from '../client/api-error.js';
import type { CairnClient } from '../client/cairn-client.js';
import type { ConnectionState } from '../client/run-events.js';
import { type ConversationAction, type ConversationState, conversationReducer, emptyConversation, runsOf } from '../state/conversation.js';
import type { AgentInfo, ApprovalDecisionValue, ApprovalRecord, Run, SendBody } from '../wire-types.js';
import { createBatcher } from './batched-dispatch.js';
import { RunFollowers } from './run-followers.js';

/** How many of an agent's latest runs the chat shows when it opens. */
const historyRuns = 20;

export interface AgentSession {
  conversation: ConversationState;
  agent?: AgentInfo;
  loading: boolean;
  connection: ConnectionState;
  /** The last request that failed (shown to the user, cleared by the next success). */
  error?: unknown;
  /** Counts live runs that ended: a key for what must be reloaded then (usage, the agent list). */
  endedRuns: number;
  sending: boolean;
  send: (body: SendBody) => Promise<void>;
  cancel: () => Promise<void>;
  answer: (runId: string, callId: string, decision: ApprovalDecisionValue, reason?: string) => Promise<void>;
  approvePlan: (runId: string) => Promise<void>;
  clearError: () => void;
}

export interface AgentSessionOptions {
  client: CairnClient;
  agentId?: string;
  /** The workspace of a new agent; default the server's `defaultCwd`. */
  cwd?: string;
  /** A send without an agent created one. */
  onAgentCreated: (agent: AgentInfo) => void;
  /** The agent to open does not exist (any more) or is outside the server's roots. */
  onAgentMissing?: (agentId: string) => void;
}

/**
 * One agent's conversation, kept live: on open (or reload) the agent, its latest runs replayed from
 * offset 0, the running one followed live with its pending approvals; then sends, cancels and
 * answers. A reload mid-run rebuilds the same view from the log, so nothing is lost.
 */
export function useAgentSession({ client, agentId, cwd, onAgentCreated, onAgentMissing }: AgentSessionOptions): AgentSession {
  const [conversation, dispatch] = useReducer(conversationReducer, emptyConversation);
  const [agent, setAgent] = useState<AgentInfo>();
  const [loading, setLoading] = useState(false);
  const [connection, setConnection] = useState<ConnectionState>('closed');
  const [error, setError] = useState<unknown>();
  const [endedRuns, setEndedRuns] = useState(0);
  const [sending, setSending] = useState(false);
  const followers = useRef<RunFollowers | undefined>(undefined);
  const missing = useRef(onAgentMissing);
  missing.current = onAgentMissing;
  // Read by the actions, so they stay the same functions while events stream in.
  const latest = useRef(conversation);
  latest.current = conversation;

  useEffect(() => {
    const batcher = createBatcher(dispatch);
    const current = new RunFollowers(client, {
      dispatch: batcher.dispatch,
      onConnection: setConnection,
      onLiveEnd: () => setEndedRuns((count) => count + 1),
      onError: setError,
    });
    followers.current = current;
    dispatch({ type: 'reset', ...(agentId ? { agentId } : {}) });
    setAgent(undefined);
    setError(undefined);
    setConnection('closed');
    let stale = false;
    if (agentId) {
      setLoading(true);
      openAgent(client, agentId, current, dispatch, () => stale)
        .then((info) => !stale && setAgent(info))
        .catch((caught: unknown) => {
          if (stale) return;
          setError(caught);
          if (caught instanceof CairnApiError && caught.status === 404) missing.current?.(agentId);
        })
        .finally(() => !stale && setLoading(false));
    }
    return () => {
      stale = true;
      current.stopAll();
      batcher.cancel();
    };
  }, [client, agentId]);

  const fail = useCallback((caught: unknown) => setError(caught), []);

  const follow = useCallback((run: Run) => {
    dispatch({ type: 'run', run });
    followers.current?.follow(run.id, true);
  }, []);

  const send = useCallback(
    async (body: SendBody) => {
      setSending(true);
      setError(undefined);
      try {
        if (agentId) return follow(await client.sendRun(agentId, body));
        const { approvePlan: _approve, ...prompt } = body;
        const workspace = cwd ?? (await client.server()).defaultCwd;
        const created = await client.createAgent({ local: { cwd: workspace }, ...(body.mode ? { mode: body.mode } : {}), ...(body.model ? { model: body.model } : {}), prompt });
        // The session reopens on the new id and follows the run from there.
        onAgentCreated(created.agent);
      } catch (caught) {
        fail(caught);
      } finally {
        setSending(false);
      }
    },
    [client, agentId, cwd, onAgentCreated, follow, fail],
  );

  const cancel = useCallback(async () => {
    const running = runsOf(latest.current).filter((run) => run.runId && run.status === 'running' && !run.ended);
    try {
      const ended = await Promise.all(running.map((run) => client.cancelRun(run.runId as string)));
      for (const run of ended) dispatch({ type: 'run', run });
    } catch (caught) {
      fail(caught);
    }
  }, [client, fail]);

  const answer = useCallback(
    async (runId: string, callId: string, decision: ApprovalDecisionValue, reason?: string) => {
      try {
        const record = await client.answerApproval(runId, callId, { decision, ...(reason ? { reason } : {}) });
        dispatch({ type: 'run-event', runId, event: { kind: 'approvals', approvals: [record] } });
      } catch (caught) {
        // Someone answered first: show their decision rather than an error.
        const winner = caught instanceof CairnApiError && caught.code === 'conflict' ? (caught.details.approval as ApprovalRecord | undefined) : undefined;
        if (winner) dispatch({ type: 'run-event', runId, event: { kind: 'approvals', approvals: [winner] } });
        else fail(caught);
      }
    },
    [client, fail],
  );

  const approvePlan = useCallback(
    async (runId: string) => {
      const pending = latest.current.runs[runId]?.approvals.find((approval) => approval.kind === 'plan' && approval.status === 'pending');
      if (pending) return answer(runId, pending.callId, 'allow');
      // The run that proposed the plan has ended: a new run approves it (and switches to agent mode).
      return send({ text: 'The plan is approved. Implement it now.', approvePlan: true });
    },
    [answer, send],
  );

  const clearError = useCallback(() => setError(undefined), []);

  return useMemo(
    () => ({ conversation, agent, loading, connection, error, endedRuns, sending, send, cancel, answer, approvePlan, clearError }),
    [conversation, agent, loading, connection, error, endedRuns, sending, send, cancel, answer, approvePlan, clearError],
  );
}

/** Load the agent and its latest runs, then follow each: live when running, else a replay. */
async function openAgent(client: CairnClient, agentId: string, followers: RunFollowers, dispatch: (action: ConversationAction) => void, isStale: () => boolean): Promise<AgentInfo> {
  const [info, page] = await Promise.all([client.getAgent(agentId), client.listRuns(agentId, { limit: historyRuns })]);
  if (isStale()) return info;
  // Newest first from the server; the running one is followed before the history is replayed.
  for (const run of page.items) dispatch({ type: 'run', run });
  for (const run of page.items) followers.follow(run.id, run.status === 'running');
  for (const run of page.items) {
    if (run.status !== 'running' || run.pendingApprovals === 0) continue;
    // The replay brings the requests too; asking directly shows them before a long log has replayed.
    void client
      .listApprovals(run.id)
      .then((approvals) => !isStale() && dispatch({ type: 'run-event', runId: run.id, event: { kind: 'approvals', approvals } }))
      .catch(() => undefined);
  }
  return info;
}
