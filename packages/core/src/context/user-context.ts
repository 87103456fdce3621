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

interface LayoutNode {
  name: string;
  directory: boolean;
  children: LayoutNode[];
  /** Entries of this directory left out (per-directory cap or the total budget). */
  omitted: number;
}

/**
 * A bounded snapshot of the workspace tree (ignore files honoured). Filled breadth-first, so the top
 * levels of a large repository are always shown and one huge folder cannot use up the budget; each
 * folder shows at most `maxPerDirectory` entries and says how many more it has.
 */
export async function projectLayout(root: string, options: { maxEntries?: number; maxDepth?: number; maxPerDirectory?: number } = {}): Promise<string> {
  const maxEntries = options.maxEntries ?? 200;
  const maxDepth = options.maxDepth ?? 4;
  const maxPerDirectory = options.maxPerDirectory ?? 40;
  const rules = await IgnoreRules.load(root);
  const top: LayoutNode = { name: '', directory: true, children: [], omitted: 0 };
  let shown = 0;
  let queue: Array<{ node: LayoutNode; relative: string; depth: number }> = [{ node: top, relative: '', depth: 0 }];
  while (queue.length > 0) {
    const next: typeof queue = [];
    for (const { node, relative, depth } of queue) {
      let entries: Dirent[];
      try {
        entries = await readdir(join(root, relative), { withFileTypes: true });
      } catch {
        continue;
      }
      await rules.loadDirectory(relative);
      entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const visible = entries.filter((entry) => !rules.ignores(relative ? `${relative}/${entry.name}` : entry.name, entry.isDirectory()));
      for (const entry of visible) {
        if (node.children.length >= maxPerDirectory || shown >= maxEntries) {
          node.omitted++;
          continue;
        }
        shown++;
        const child: LayoutNode = { name: entry.name, directory: entry.isDirectory(), children: [], omitted: 0 };
        node.children.push(child);
        if (child.directory && depth + 1 < maxDepth) next.push({ node: child, relative: relative ? `${relative}/${entry.name}` : entry.name, depth: depth + 1 });
      }
    }
    queue = next;
  }
  const lines: string[] = [];
  const render = (node: LayoutNode, depth: number) => {
    for (const child of node.children) {
      lines.push(`${'  '.repeat(depth)}${child.name}${child.directory ? '/' : ''}`);
      render(child, depth + 1);
    }
    if (node.omitted > 0) lines.push(`${'  '.repeat(depth)}... ${node.omitted} more`);
  };
  render(top, 0);
  const anyOmitted = (node: LayoutNode): boolean => node.omitted > 0 || node.children.some(anyOmitted);
  const note = anyOmitted(top) ? '\n(The snapshot is cut; use list_dir or glob_file_search to explore further.)' : '';
  return `<project_layout>\n${lines.join('\n') || '(empty workspace)'}${note}\n</project_layout>`;
}

export function renderUserQuery(text: string): string {
  return `<user_query>\n${text}\n</user_query>`;
}
