import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { SandboxRequirement, ToolDefinition, ToolName } from '../spec/tool/v1/index.js';
import { toolAvailability } from './tool-set.js';

/**
 * What a mode lets the model do, as the runtime will actually apply it. A mode switch is judged on
 * these rights, never on the pair of mode names, so a custom mode is judged by its declared policy
 * and a chain of switches cannot add up to more than the mode the user chose.
 */
export interface ModeRights {
  /** The mode lets tools that change files run (`toolPolicy.readOnly: false`). */
  writes: boolean;
  /** Where the shell runs: 0 off, 1 read-only sandbox, 2 workspace-write sandbox, 3 the host. */
  shell: ShellLevel;
  /** Hosts the shell's sandbox lets through; `all` on the host. */
  network: 'all' | string[];
  /** 0 none, 1 only readOnlyHint, 2 all MCP and custom tools. */
  mcp: 0 | 1 | 2;
  /** Model-facing names of the tools the mode offers, planning tools left out (see below). */
  tools: string[];
}

type ShellLevel = 0 | 1 | 2 | 3;

const shellLevelNames = ['off', 'only in the read-only sandbox', 'in the workspace-write sandbox', 'on the host without a sandbox'] as const;

export interface ModeRightsContext {
  tools: ToolDefinition[];
  allow?: ToolName[];
  deny?: ToolName[];
  cwd: string;
  settings: Record<string, unknown>;
  /** The sandbox the runtime gives the shell in a mode (the agent's sandboxFor). */
  sandboxFor(mode: ModeDefinition): SandboxRequirement;
}

/** The rights of `mode` with this run's tools, allow/deny lists and sandbox options. */
export function modeRights(mode: ModeDefinition, context: ModeRightsContext): ModeRights {
  const offered = toolAvailability(context.tools, { allow: context.allow, deny: context.deny, mode, cwd: context.cwd, settings: context.settings }).filter((entry) => entry.offered).map((entry) => entry.tool);
  const sandbox = context.sandboxFor(mode);
  const shellOffered = mode.toolPolicy.shell !== 'off' && (offered.some((tool) => tool.category === 'shell') || !context.tools.some((tool) => tool.category === 'shell'));
  // Planning tools (todo_write, create_plan, switch_mode) only change the conversation's own state,
  // never the workspace or the world, so plan and ask count as equal.
  const tools = offered.filter((tool) => tool.category !== 'planning').map((tool) => tool.name).sort();
  return {
    writes: !mode.toolPolicy.readOnly,
    shell: shellOffered ? shellLevelOf(sandbox) : 0,
    network: sandbox.profile === 'none' ? 'all' : [...sandbox.networkAllow].sort(),
    mcp: mode.toolPolicy.mcp === 'all' ? 2 : mode.toolPolicy.mcp === 'readOnlyHint' ? 1 : 0,
    tools,
  };
}

function shellLevelOf(sandbox: SandboxRequirement): ShellLevel {
  if (sandbox.profile === 'read-only') return 1;
  if (sandbox.profile === 'workspace-write') return 2;
  return 3;
}

/**
 * What `target` allows beyond `reference`, one readable phrase per right (empty: nothing more).
 * Any right counts, so a mode that is stricter in one way and looser in another still needs approval.
 */
export function addedRights(target: ModeRights, reference: ModeRights): string[] {
  const added: string[] = [];
  if (target.writes && !reference.writes) added.push('file edits');
  if (target.shell > reference.shell) added.push(`the shell ${shellLevelNames[target.shell]} (instead of ${shellLevelNames[reference.shell]})`);
  if (target.shell > 0 && reference.shell > 0) {
    if (target.network === 'all' && reference.network !== 'all') added.push('unrestricted network access');
    else if (Array.isArray(target.network) && Array.isArray(reference.network)) {
      const hosts = target.network.filter((host) => !(reference.network as string[]).includes(host));
      if (hosts.length > 0) added.push(`network access to ${hosts.join(', ')}`);
    }
  }
  if (target.mcp > reference.mcp) added.push(target.mcp === 2 ? 'MCP and custom tools without readOnlyHint' : 'MCP and custom tools marked readOnlyHint');
  const tools = target.tools.filter((name) => !reference.tools.includes(name));
  if (tools.length > 0) added.push(`the tools ${tools.join(', ')}`);
  return added;
}
