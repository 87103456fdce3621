import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { cairnHome } from '../config/workspace-config.js';
import type { SettingSource } from '../config/setting-sources.js';
import { lazyRequire } from '../util/lazy-require.js';
import type { SubagentType } from './definitions.js';

// yaml is loaded only when an agent file is read.
const loadYaml = lazyRequire<{ parse(text: string): unknown }>('yaml');

/** The folders of one layer, strongest first: Cairn's own, then Cursor's, then Claude Code's. */
function layerFolders(root: string, cairnFolder: string): string[] {
  return [cairnFolder, join(root, '.cursor', 'agents'), join(root, '.claude', 'agents')];
}

export interface AgentFileLayers {
  cwd: string;
  settingSources: readonly SettingSource[] | undefined;
  env: Record<string, string | undefined>;
}

/**
 * Subagent types from agent files, for the layers `local.settingSources` names (as MCP files:
 * none without it). Returns user types and project types; project wins over user by name, and in
 * a layer `.cairn/agents` wins over `.cursor/agents` over `.claude/agents`.
 */
export async function loadAgentFiles(input: AgentFileLayers): Promise<{ user: SubagentType[]; project: SubagentType[] }> {
  const sources = input.settingSources ?? [];
  const all = sources.includes('all');
  const home = input.env.HOME?.trim() || homedir();
  const project = all || sources.includes('project') ? await loadLayer(layerFolders(input.cwd, join(input.cwd, '.cairn', 'agents'))) : [];
  const user = all || sources.includes('user') ? await loadLayer(layerFolders(home, join(cairnHome(input.env), 'agents'))) : [];
  return { user, project };
}

async function loadLayer(folders: string[]): Promise<SubagentType[]> {
  const byName = new Map<string, SubagentType>();
  // Weakest folder first, so a stronger one replaces a type of the same name.
  for (const folder of [...folders].reverse()) {
    for (const type of await loadFolder(folder)) byName.set(type.name, type);
  }
  return [...byName.values()];
}

async function loadFolder(folder: string): Promise<SubagentType[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith('.md')).sort();
  } catch {
    return [];
  }
  const types: SubagentType[] = [];
  for (const name of names) {
    const path = join(folder, name);
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text !== undefined) types.push(parseAgentFile(text, path));
  }
  return types;
}

const blockPattern = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/**
 * One agent file: front matter `name` (default: the file name), `description`, `model`, `tools`
 * (a list, or Claude Code's comma-separated string), and the body as the subagent's prompt. A file
 * that cannot be read as one is still listed, so calling it says what is wrong instead of the type
 * vanishing: its description names the problem.
 */
export function parseAgentFile(text: string, path: string): SubagentType {
  const match = blockPattern.exec(text);
  const data = match ? frontMatter(match[1] ?? '') : {};
  const body = (match ? text.slice(match[0].length) : text.replace(/^\uFEFF/, '')).trim();
  const name = stringField(data.name) ?? basename(path, '.md');
  const description = stringField(data.description) ?? `Subagent from ${basename(path)} (its file has no description).`;
  const model = stringField(data.model);
  const tools = toolList(data.tools);
  return {
    name,
    description,
    prompt: body,
    ...(model ? { model } : {}),
    ...(tools ? { tools } : {}),
    source: path,
  };
}

function frontMatter(raw: string): Record<string, unknown> {
  try {
    const value = loadYaml().parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Unquoted values YAML rejects (`tools: Read, Grep` is fine; `description: a: b` is not): read lines literally.
  }
  const result: Record<string, unknown> = {};
  for (const line of raw.split(/\r?\n/)) {
    const entry = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (entry?.[1]) result[entry[1]] = entry[2]?.trim() ?? '';
  }
  return result;
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/**
 * Claude Code's and Cursor's tool names, mapped to Cairn's tool ids. Other names (Cairn ids, model
 * names, `mcp__server__tool`) pass through; a name that matches no tool only narrows the list.
 */
const foreignToolNames: Record<string, string> = {
  Read: 'read', Write: 'write', Edit: 'edit', MultiEdit: 'edit', Glob: 'glob', Grep: 'grep', LS: 'ls', Bash: 'shell',
  WebFetch: 'webFetch', WebSearch: 'webSearch', TodoWrite: 'todo', NotebookEdit: 'notebook', NotebookRead: 'notebook', Task: 'task',
};

function toolList(value: unknown): string[] | undefined {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!items) return undefined;
  const names = items.filter((item): item is string => typeof item === 'string').map((item) => item.trim()).filter(Boolean);
  return [...new Set(names.map((name) => foreignToolNames[name] ?? name))];
}
