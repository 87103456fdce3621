import { cairnHome } from '../config/workspace-config.js';
import { pathsForRules } from '../node/rule-paths.js';
import { createPermissionEngine, type PermissionLayer } from '../permissions/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import type { AgentOptions } from './agent-options.js';
import { createDeniedLinks } from './denied-links.js';
import type { PermissionVerdict } from './tool-runner.js';

export interface PermissionChecker {
  check(tool: ToolDefinition, input: unknown, paths: string[], mode: string): Promise<PermissionVerdict>;
  isPathDenied(absolutePath: string, toolId: string): boolean;
  /** The existing files the read deny rules hide, for the shell's OS-level masks. */
  readDeniedFiles(): Promise<{ paths: string[]; complete: boolean }>;
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
    ...(options.env?.HOME ? { home: options.env.HOME } : {}),
    cairnHome: cairnHome(options.env),
  });
  const deniedLinks = createDeniedLinks(engine, cwd);
  return {
    async check(tool, input, givenPaths) {
      const subject = safeSubject(tool, input);
      const paths = await pathsForRules(givenPaths, cwd);
      const verdict = await engine.check({ toolId: tool.id, toolName: tool.name, category: tool.category, readOnly: tool.readOnly, input, paths, cwd, ...(subject === undefined ? {} : { subject }) });
      return verdict.decision === 'allow' ? ((await deniedLinks.check(paths)) ?? verdict) : verdict;
    },
    isPathDenied: (absolutePath, toolId) => engine.isPathDenied(absolutePath, toolId, cwd) || deniedLinks.isDenied(absolutePath),
    readDeniedFiles: () => deniedLinks.files(),
  };
}

function safeSubject(tool: ToolDefinition, input: unknown): string | undefined {
  try {
    return tool.ruleSubject?.(input);
  } catch {
    return undefined;
  }
}
