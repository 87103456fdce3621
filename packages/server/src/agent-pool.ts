import type { AgentOptions } from '@cairn/core';
import type { AgentApi, CairnAgent } from '@cairn/core/node';
import type { AgentSettings, AgentSettingsStore } from './agent-settings.js';
import type { AllowedRoots } from './http/roots.js';
import { interactivePermissionOptions, type WorkspacePermissions } from './workspace-permissions/index.js';

export interface AgentPoolDeps {
  Agent: AgentApi;
  settings: AgentSettingsStore;
  permissions: WorkspacePermissions;
  roots: AllowedRoots;
  env: Record<string, string | undefined>;
  defaults: Omit<Partial<AgentOptions>, 'local'>;
  /** The server's sandbox default; an agent's own `sandboxOptions` win. */
  sandbox: boolean;
}

/** What a client may choose for a new agent, beyond its settings. */
export interface NewAgentChoice {
  cwd: string;
  model?: AgentOptions['model'];
  mode?: string;
  name?: string;
  agentId?: string;
}

/**
 * The open agent handles of this server, one per agent, opened on first use with the options the
 * agent was created with (kept in AgentSettingsStore, since the SDK stores none of them). Sends
 * to one agent therefore queue behind one handle, as they do in one SDK process.
 */
export class AgentPool {
  private readonly open = new Map<string, Promise<CairnAgent>>();

  constructor(private readonly deps: AgentPoolDeps) {}

  /** Whether sends are queued for workers (`agentDefaults.background`) instead of run in this process. */
  get queuesRuns(): boolean {
    return this.deps.defaults.background !== undefined;
  }

  async create(choice: NewAgentChoice, settings: AgentSettings): Promise<CairnAgent> {
    const options = await this.optionsFor(choice.cwd, settings);
    const agent = await this.deps.Agent.create({
      ...options,
      ...(choice.model ? { model: choice.model } : {}),
      ...(choice.mode ? { mode: choice.mode } : {}),
      ...(choice.name ? { name: choice.name } : {}),
      ...(choice.agentId ? { agentId: choice.agentId } : {}),
    });
    await this.deps.settings.save(agent.agentId, settings);
    this.open.set(agent.agentId, Promise.resolve(agent));
    return agent;
  }

  /** The agent's handle, resumed (with its stored settings) when this server has none open yet. */
  get(agentId: string, cwd: string): Promise<CairnAgent> {
    let handle = this.open.get(agentId);
    if (!handle) {
      handle = this.deps.settings.get(agentId).then(async (settings) => this.deps.Agent.resume(agentId, await this.optionsFor(cwd, settings)));
      this.open.set(agentId, handle);
      // A failed resume (the agent is busy elsewhere, say) is not cached: the next request tries again.
      handle.catch(() => this.open.delete(agentId));
    }
    return handle;
  }

  async forget(agentId: string): Promise<void> {
    const handle = this.open.get(agentId);
    this.open.delete(agentId);
    await (await handle?.catch(() => undefined))?.close();
    await this.deps.settings.remove(agentId);
  }

  /**
   * Stop: a run waiting for approval is left as the store has it (the next server resumes it and it
   * goes on waiting, docs/server-api.md); any other running run is cancelled, then its handle closed.
   */
  async closeAll(): Promise<void> {
    const handles = [...this.open.values()];
    this.open.clear();
    await Promise.all(handles.map(async (handle) => this.stop(await handle.catch(() => undefined))));
  }

  private async stop(agent: CairnAgent | undefined): Promise<void> {
    if (!agent) return;
    const latest = (await this.deps.Agent.listRuns(agent.agentId, { limit: 1 }).catch(() => undefined))?.items[0];
    if (latest?.status === 'running') {
      if ((await latest.pendingApprovals()).length > 0) return;
      await latest.cancel().catch(() => undefined);
    }
    await agent.close().catch(() => undefined);
  }

  /**
   * After a restart: every agent inside the roots whose latest run is still recorded as running is
   * resumed, and the SDK continues the runs that waited for approval (others are closed as
   * interrupted). Returns the ids of the agents resumed.
   */
  async resumeLeftRuns(): Promise<string[]> {
    // Queued runs are the workers' to resume, on whichever machine.
    if (this.queuesRuns) return [];
    const resumed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.deps.Agent.list({ limit: 100, includeArchived: true, ...(cursor ? { cursor } : {}) });
      for (const info of page.items) {
        if (info.latestRunStatus !== 'running' || !this.deps.roots.contains(info.cwd)) continue;
        try {
          await this.get(info.agentId, info.cwd);
          resumed.push(info.agentId);
        } catch {
          // Held by another live process: that process goes on with it.
        }
      }
      cursor = page.nextCursor;
    } while (cursor);
    return resumed;
  }

  /** The interactive defaults, the rules remembered for the workspace, then the agent's own settings. */
  private async optionsFor(cwd: string, settings: AgentSettings): Promise<AgentOptions> {
    const remembered = await this.deps.permissions.rules(cwd).catch(() => []);
    const interactive = interactivePermissionOptions(remembered);
    const defaults = this.deps.defaults;
    return {
      ...defaults,
      ...interactive,
      env: this.deps.env,
      defaultPermission: settings.defaultPermission ?? interactive.defaultPermission ?? 'ask',
      permissions: {
        allow: [...(interactive.permissions?.allow ?? []), ...(settings.permissions?.allow ?? [])],
        deny: [...(defaults.permissions?.deny ?? []), ...(settings.permissions?.deny ?? [])],
        ask: [...(defaults.permissions?.ask ?? []), ...(settings.permissions?.ask ?? [])],
      },
      ...(settings.maxSteps ? { maxSteps: settings.maxSteps } : {}),
      ...(settings.tools ? { tools: settings.tools } : {}),
      ...(settings.disallowedTools ? { disallowedTools: settings.disallowedTools } : {}),
      ...(settings.systemPrompt ? { systemPrompt: settings.systemPrompt } : {}),
      local: {
        cwd,
        ...((settings.sandbox ?? this.deps.sandbox) ? { sandboxOptions: { enabled: true } } : {}),
        ...(settings.settingSources ? { settingSources: settings.settingSources as NonNullable<AgentOptions['local']>['settingSources'] } : {}),
      },
    };
  }
}
