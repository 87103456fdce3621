import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { IgnoreRules } from '../node/ignore-rules.js';

export interface UserInfo {
  os: string;
  shell: string;
  workspace: string;
  date: string;
}

export function currentUserInfo(workspace: string, now: Date = new Date()): UserInfo {
  return {
    os: `${process.platform} ${process.arch}`,
    shell: process.env.SHELL ?? (process.platform === 'win32' ? 'powershell' : '/bin/sh'),
    workspace,
    date: now.toISOString().slice(0, 10),
  };
}

export function renderUserInfo(info: UserInfo): string {
  return `<user_info>\nOS: ${info.os}\nShell: ${info.shell}\nWorkspace: ${info.workspace}\nDate: ${info.date}\n</user_info>`;
}

/**
 * A bounded snapshot of the workspace tree (ignore files honoured), breadth-first so the top of a
 * large repository is always shown; cut with a note past `maxEntries`.
 */
export async function projectLayout(root: string, options: { maxEntries?: number; maxDepth?: number } = {}): Promise<string> {
  const maxEntries = options.maxEntries ?? 200;
  const maxDepth = options.maxDepth ?? 4;
  const rules = await IgnoreRules.load(root);
  const lines: string[] = [];
  let shown = 0;
  let truncated = false;
  const walk = async (relative: string, depth: number): Promise<void> => {
    if (depth > maxDepth) return;
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    await rules.loadDirectory(relative);
    entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (rules.ignores(path, entry.isDirectory())) continue;
      if (shown >= maxEntries) {
        truncated = true;
        return;
      }
      shown++;
      lines.push(`${'  '.repeat(depth)}${entry.name}${entry.isDirectory() ? '/' : ''}`);
      if (entry.isDirectory()) await walk(path, depth + 1);
    }
  };
  await walk('', 0);
  if (truncated) lines.push(`... (more entries not shown; use list_dir or glob_file_search to explore)`);
  return `<project_layout>\n${lines.join('\n') || '(empty workspace)'}\n</project_layout>`;
}

export function renderUserQuery(text: string): string {
  return `<user_query>\n${text}\n</user_query>`;
}
