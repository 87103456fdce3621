import { baseSystemBlocks } from './prompt-blocks.js';

export interface SystemPromptInput {
  /** Workspace rules (.cairn/rules, .cursor/rules, AGENTS.md) already rendered. */
  workspaceRules?: string[];
  userRules?: string[];
  mcpInstructions?: string[];
  /** Free text from AgentOptions.systemPrompt.append. */
  append?: string;
}

/**
 * The system prompt: stable blocks first, then workspace rules, user rules and MCP instructions.
 * Mode instructions are not here: they go in a `<system_reminder>` when a mode becomes active, so
 * switching modes does not invalidate the cached prefix.
 */
export function buildSystemPrompt(input: SystemPromptInput = {}): string {
  const blocks = [...baseSystemBlocks];
  if (input.workspaceRules?.length) blocks.push(`# Workspace rules\n${input.workspaceRules.join('\n\n')}`);
  if (input.userRules?.length) blocks.push(`# User rules\n${input.userRules.join('\n\n')}`);
  if (input.mcpInstructions?.length) blocks.push(`# MCP server instructions\n${input.mcpInstructions.join('\n\n')}`);
  if (input.append?.trim()) blocks.push(input.append.trim());
  return blocks.join('\n\n');
}

/** Wrap dynamic instructions so the model can tell them from the user's words. */
export function systemReminder(text: string): string {
  return `<system_reminder>\n${text.trim()}\n</system_reminder>`;
}
