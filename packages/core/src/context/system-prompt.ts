import type { WorkspaceRule } from '../config/rules-loader.js';
import { baseSystemBlocks } from './prompt-blocks.js';
import { renderAlwaysRules, renderRuleIndex } from './rules-prompt.js';

export interface SystemPromptInput {
  /** Workspace rules (.cairn/rules, .cursor/rules, AGENTS.md) already rendered. */
  workspaceRules?: string[];
  userRules?: string[];
  /** Loaded rule files: always rules are rendered into the rule blocks, described ones listed. */
  rules?: readonly WorkspaceRule[];
  /** The registered modes, for the (mode-independent) modes block. */
  modes?: ReadonlyArray<{ id: string; description: string }>;
  mcpInstructions?: string[];
  /** Free text from AgentOptions.systemPrompt.append. */
  append?: string;
}

/**
 * The system prompt (SPEC section 6): stable blocks first, then the modes block, workspace rules,
 * user rules and MCP instructions. The modes block lists every mode but names none as current: the
 * active mode's instructions go in a `<system_reminder>` when it becomes active, so switching
 * modes does not invalidate the cached prefix.
 */
export function buildSystemPrompt(input: SystemPromptInput = {}): string {
  const blocks = [...baseSystemBlocks];
  if (input.modes?.length) blocks.push(modesBlock(input.modes));
  const workspaceRules = [...(input.workspaceRules ?? []), ...renderAlwaysRules(input.rules ?? [], 'project')];
  const userRules = [...(input.userRules ?? []), ...renderAlwaysRules(input.rules ?? [], 'user')];
  if (workspaceRules.length) blocks.push(`# Workspace rules\nInstructions from the workspace's rule files. Follow them unless the user says otherwise.\n\n${workspaceRules.join('\n\n')}`);
  if (userRules.length) blocks.push(`# User rules\nThe user's own standing instructions.\n\n${userRules.join('\n\n')}`);
  const index = renderRuleIndex(input.rules ?? []);
  if (index) blocks.push(index);
  if (input.mcpInstructions?.length) blocks.push(`# MCP server instructions\n${input.mcpInstructions.join('\n\n')}`);
  if (input.append?.trim()) blocks.push(input.append.trim());
  return blocks.join('\n\n');
}

function modesBlock(modes: ReadonlyArray<{ id: string; description: string }>): string {
  const lines = modes.map((mode) => `- ${mode.id}: ${mode.description}`);
  return `# Modes\nYou always work in one of these modes. The current mode and its instructions are given in a <system_reminder> whenever it starts or changes; the mode decides which tools you can use. Only the user (or an approved switch_mode request) changes the mode.\n${lines.join('\n')}`;
}

/** Wrap dynamic instructions so the model can tell them from the user's words. */
export function systemReminder(text: string): string {
  return `<system_reminder>\n${text.trim()}\n</system_reminder>`;
}
