import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isModeSwitchRule } from './approval-rules.js';

/**
 * "Allow always for this workspace", remembered per workspace in the user's own
 * `$CAIRN_HOME/workspace-permissions.json`, not in the project's `.cairn/permissions.json`: project
 * `allow` rules only load when the project layer is trusted, and a cloned repository must never be
 * able to pre-approve commands. Shape: `{ "workspaces": { "<abs cwd>": { "allow": ["shell(npm test)", "mode-switch(plan->agent)"] } } }`.
 */
export interface WorkspacePermissions {
  /** The remembered rules of one workspace. */
  rules(cwd: string): Promise<string[]>;
  /** Remember one more rule for the workspace (kept once). */
  remember(cwd: string, rule: string): Promise<void>;
  readonly file: string;
}

interface FileShape {
  workspaces: Record<string, { allow: string[] }>;
}

export function workspacePermissions(cairnHome: string): WorkspacePermissions {
  const file = join(cairnHome, 'workspace-permissions.json');
  const load = async (): Promise<FileShape> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return { workspaces: {} };
    }
    const data = JSON.parse(text) as Partial<FileShape>;
    if (typeof data !== 'object' || data === null || typeof data.workspaces !== 'object' || data.workspaces === null) {
      throw new Error(`${file} is not { "workspaces": { ... } }; fix or delete it`);
    }
    return data as FileShape;
  };
  return {
    file,
    async rules(cwd) {
      const allow = (await load()).workspaces[cwd]?.allow;
      return Array.isArray(allow) ? allow.filter((rule): rule is string => typeof rule === 'string') : [];
    },
    async remember(cwd, rule) {
      const data = await load();
      const entry = data.workspaces[cwd] ?? { allow: [] };
      if (!entry.allow.includes(rule)) entry.allow.push(rule);
      data.workspaces[cwd] = entry;
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, file);
    },
  };
}

/** The remembered rules that are permission rules for the agent (mode switches are answered by the UI). */
export const permissionRulesOf = (rules: readonly string[]) => rules.filter((rule) => !isModeSwitchRule(rule));
