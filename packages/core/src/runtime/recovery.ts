import type { AgentRecord, AgentStore } from '../spec/store/v1/index.js';

/**
 * Close runs left `running` by a process that died (its lease expired or was taken over): they end
 * as `error` with code `interrupted`, and a final status event is appended so streams of them end.
 * The conversation itself is repaired when it is next loaded (unanswered tool calls get results).
 */
export async function recoverInterruptedRuns(store: AgentStore, agent: AgentRecord, owner: string, exceptRunId?: string): Promise<number> {
  const current = await store.agents.get(agent.agentId);
  const lease = current?.lease;
  const leaseAlive = lease && lease.expiresAt > Date.now() && lease.owner !== owner;
  if (leaseAlive) return 0;
  let closed = 0;
  const page = await store.runs.list(agent.agentId, { status: 'running', limit: 100 });
  for (const run of page.items) {
    if (run.runId === exceptRunId) continue;
    if (run.owner === owner && lease?.owner === owner && lease.runId === run.runId) continue;
    const now = Date.now();
    const error = { message: 'The process running this run stopped before it finished; the run was closed when the agent was next used.', code: 'interrupted' };
    await store.runs.update(run.runId, { status: 'error', error, finishedAt: now, updatedAt: now });
    await store.runEvents.append(run.runId, [{ kind: 'message', message: { type: 'status', status: 'error', error, message: error.message, agent_id: run.agentId, run_id: run.runId } }]);
    closed++;
  }
  return closed;
}
