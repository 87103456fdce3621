import { createPermissionEngine, type PermissionLayer } from '../permissions/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import type { AgentOptions } from './agent-options.js';
import type { PermissionVerdict } from './tool-runner.js';

export interface PermissionChecker {
  check(tool: ToolDefinition, input: unknown, paths: string[], mode: string): Promise<PermissionVerdict>;
  isPathDenied(absolutePath: string, toolId: string): boolean;
}

/**
 * The permission decisions of one run: the agent's rules and extra layers (project and user
 * settings files) through the permission engine, where deny wins whatever layer it came from.
 */
export function createPermissionChecker(options: AgentOptions, cwd: string, extraLayers: PermissionLayer[] = []): PermissionChecker {
  const engine = createPermissionEngine({
    layers: [...(options.permissions ? [{ source: 'agent', rules: options.permissions }] : []), ...extraLayers],
    ...(options.defaultPermission ? { defaultDecision: options.defaultPermission } : {}),
    ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
    ...(options.allowProtectedPathWrites ? { allowProtectedPathWrites: true } : {}),
    cwd,
  });
  return {
    async check(tool, input, paths) {
      const subject = safeSubject(tool, input);
      return engine.check({ toolId: tool.id, toolName: tool.name, category: tool.category, readOnly: tool.readOnly, input, paths, cwd, ...(subject === undefined ? {} : { subject }) });
    },
    isPathDenied: (absolutePath, toolId) => engine.isPathDenied(absolutePath, toolId, cwd),
  };
}

function safeSubject(tool: ToolDefinition, input: unknown): string | undefined {
  try {
    return tool.ruleSubject?.(input);
  } catch {
    return undefined;
  }
}
