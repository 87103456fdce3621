import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { ToolError } from '@cairn/core';
import { isInsideRoot, resolveWorkspacePath } from '@cairn/core/node';

export interface LintTarget {
  absolute: string;
  relative: string;
  isDirectory: boolean;
}

/** What a call asked about: given files and folders, or (empty) the whole workspace. */
export interface LintScope {
  root: string;
  targets: LintTarget[];
}

export async function resolveLintScope(root: string, paths: readonly string[] | undefined): Promise<LintScope> {
  const targets: LintTarget[] = [];
  for (const path of paths ?? []) {
    const resolved = await resolveWorkspacePath(root, path, { allowRoot: true });
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(resolved.absolute)).isDirectory();
    } catch {
      throw new ToolError(`${path} does not exist in the workspace. Pass existing files or folders, or no paths for the whole workspace.`);
    }
    targets.push({ absolute: resolved.absolute, relative: resolved.relative, isDirectory });
  }
  return { root, targets };
}

/** True when `absolutePath` is one of the targets or inside one of the target folders. */
export function isInScope(scope: LintScope, absolutePath: string): boolean {
  if (scope.targets.length === 0) return isInsideRoot(scope.root, absolutePath);
  return scope.targets.some((target) => (target.isDirectory ? isInsideRoot(target.absolute, absolutePath) : target.absolute === absolutePath));
}

/**
 * The tsconfig.json projects to check: for each target the nearest tsconfig.json at or above it
 * (inside the workspace); for the whole workspace the root one.
 */
export function findTsconfigProjects(scope: LintScope): string[] {
  if (scope.targets.length === 0) return existsSync(join(scope.root, 'tsconfig.json')) ? [join(scope.root, 'tsconfig.json')] : [];
  const projects = new Set<string>();
  for (const target of scope.targets) {
    let directory = target.isDirectory ? target.absolute : dirname(target.absolute);
    for (;;) {
      const candidate = join(directory, 'tsconfig.json');
      if (existsSync(candidate)) {
        projects.add(candidate);
        break;
      }
      if (directory === scope.root || !isInsideRoot(scope.root, directory)) break;
      directory = dirname(directory);
    }
  }
  return [...projects];
}
