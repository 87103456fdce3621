import type { AgentRecord, AgentStore, SDKAgentInfo } from '@cairn/core';
import type { AgentApi, CairnAgent, CairnApi, Run } from '@cairn/core/node';
import type { z } from '@hono/zod-openapi';
import type { AgentPool } from './agent-pool.js';
import { notFound } from './http/api-error.js';
import type { AllowedRoots } from './http/roots.js';
import type { sendBodySchema } from './http/schemas.js';
import { RememberedApprovals } from './remembered-approvals.js';
import type { ResolvedServerOptions } from './server-options.js';
import type { WorkspacePermissions } from './workspace-permissions/index.js';

export type SendBody = z.infer<typeof sendBodySchema>;

/** What every route works with: the SDK entry points over the server's store, and its limits. */
export class ServerContext {
  constructor(
    readonly Agent: AgentApi,
    readonly Cairn: CairnApi,
    readonly store: AgentStore,
    readonly pool: AgentPool,
    readonly roots: AllowedRoots,
    readonly permissions: WorkspacePermissions,
    readonly options: ResolvedServerOptions,
  ) {}

  /** The stored agent's row, or 404 when there is none or its workspace is outside the roots. */
  async agentRecord(agentId: string): Promise<AgentRecord> {
    const record = await this.store.agents.get(agentId);
    if (!record || !this.roots.contains(record.cwd)) throw notFound(`Agent ${agentId}`);
    return record;
  }

  async agentInfo(agentId: string): Promise<SDKAgentInfo> {
    await this.agentRecord(agentId);
    return this.Agent.get(agentId);
  }

  async agentHandle(agentId: string): Promise<CairnAgent> {
    return this.pool.get(agentId, (await this.agentRecord(agentId)).cwd);
  }

  /** The run and its agent's workspace, or 404 as for agents. */
  async run(runId: string): Promise<{ run: Run; cwd: string }> {
    const record = await this.store.runs.get(runId);
    const agent = record ? await this.store.agents.get(record.agentId) : undefined;
    if (!record || !agent || !this.roots.contains(agent.cwd)) throw notFound(`Run ${runId}`);
    return { run: await this.Agent.getRun(runId), cwd: agent.cwd };
  }

  /** Send one message; the run goes on whatever happens to the request that started it. */
  async send(agent: CairnAgent, body: SendBody): Promise<Run> {
    const images = body.images?.map((image) => ({ data: image.data, mimeType: image.mimeType }));
    const message = { text: body.text ?? '', ...(images?.length ? { images } : {}) };
    const options = { ...(body.mode ? { mode: body.mode } : {}), ...(body.model ? { model: body.model } : {}), ...(body.approvePlan ? { approvePlan: true } : {}) };
    // A queued run's updates happen in a worker: remembered rules are the worker's to apply (docs/background-agents.md).
    if (this.pool.queuesRuns) return agent.send(message, options);
    const remembered = new RememberedApprovals(agent.cwd, this.permissions);
    const run = await agent.send(message, { ...options, onDelta: remembered.onDelta });
    remembered.attach(run);
    return run;
  }
}
