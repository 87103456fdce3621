import type { AgentStore, RunRecord } from '../spec/store/v1/index.js';

/** Every run of an agent, newest first, read page by page (stores cap a page at 1,000). */
export async function allRunsOf(store: AgentStore, agentId: string): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.runs.list(agentId, { limit: 500, ...(cursor ? { cursor } : {}) });
    runs.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return runs;
}
