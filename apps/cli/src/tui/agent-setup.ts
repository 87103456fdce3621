import { Agent, type AgentOptions, type CairnAgent } from '@cairn/sdk';
import { cliHookLocalOptions } from '../commands/hooks-trust.js';
import { cliMcpLocalOptions, type AskQuestion } from '../commands/mcp-trust.js';
import { cliCairnHome } from '../commands/mcp-trust-store.js';
import { interactivePermissionOptions, workspacePermissions } from '@cairn/server/workspace-permissions';

export interface AgentSetup {
  env: Record<string, string | undefined>;
  sandbox: boolean;
  stderr: NodeJS.WritableStream;
  /** Asks the person at the terminal (the UI's own prompt) about project MCP servers and hooks. */
  ask: AskQuestion;
}

/** The options every agent of the chat gets, for the workspace `cwd`, with the rules remembered there. */
export async function agentOptionsFor(cwd: string, setup: AgentSetup): Promise<AgentOptions & { local: NonNullable<AgentOptions['local']> }> {
  const trust = { cwd, env: setup.env, stderr: setup.stderr, ask: setup.ask };
  const remembered = await rememberedRules(cwd, setup.env);
  return {
    ...interactivePermissionOptions(remembered),
    env: setup.env,
    local: { cwd, ...cliMcpLocalOptions(trust), ...cliHookLocalOptions(trust), ...(setup.sandbox ? { sandboxOptions: { enabled: true } } : {}) },
  };
}

export async function rememberedRules(cwd: string, env: Record<string, string | undefined>): Promise<string[]> {
  return workspacePermissions(cliCairnHome(env)).rules(cwd);
}

/** A new agent in `cwd`. */
export async function createChatAgent(cwd: string, choice: { model?: string; mode?: string }, setup: AgentSetup): Promise<CairnAgent> {
  const options = await agentOptionsFor(cwd, setup);
  return Agent.create({ ...options, ...(choice.model ? { model: choice.model } : {}), ...(choice.mode ? { mode: choice.mode } : {}) });
}

/** A stored agent, in the workspace it was created in (not the folder cairn was started in). */
export async function resumeChatAgent(agentId: string, choice: { model?: string }, setup: AgentSetup): Promise<CairnAgent> {
  const info = await Agent.get(agentId);
  const options = await agentOptionsFor(info.cwd, setup);
  return Agent.resume(agentId, { ...options, ...(choice.model ? { model: choice.model } : {}) });
}
