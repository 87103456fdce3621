import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigurationError } from '../spec/errors/index.js';
import { type HookCommand, type HookFormat, parseHookFile } from './hook-config.js';

/** A hooks file of the project layer, as a host is asked to trust it (`local.trustProjectHooks`). */
export interface HookProjectFile {
  /** Absolute path of the file. */
  file: string;
  format: HookFormat;
  /** sha256 of the file's `hooks` value: any change to a command, matcher or timeout is a new hash. */
  hash: string;
  /** The commands it would run, in order, with their event (`PreToolUse: ./check.sh`). */
  commands: string[];
}

export interface LoadedHookFile extends HookProjectFile {
  layer: 'project' | 'user';
  hookCommands: HookCommand[];
  unsupported: string[];
}

export interface HookFileLayers {
  cwd: string;
  project: boolean;
  user: boolean;
  /** The user's home folder (`~/.cursor`, `~/.claude`). */
  home: string;
  /** `$CAIRN_HOME` (`~/.cairn`). */
  cairnHome: string;
}

type Place = { path: string; layer: 'project' | 'user'; format: HookFormat | 'detect'; cwd: string };

/** Where hooks files live, in the order their hooks run: project before user, as Cursor does. */
export function hookFilePlaces(layers: HookFileLayers): Place[] {
  const places: Place[] = [];
  const { cwd, home, cairnHome } = layers;
  if (layers.project) {
    places.push(
      { path: join(cwd, '.cairn/hooks.json'), layer: 'project', format: 'detect', cwd },
      { path: join(cwd, '.cursor/hooks.json'), layer: 'project', format: 'cursor', cwd },
      { path: join(cwd, '.claude/settings.json'), layer: 'project', format: 'claude', cwd },
      { path: join(cwd, '.claude/settings.local.json'), layer: 'project', format: 'claude', cwd },
    );
  }
  if (layers.user) {
    places.push(
      { path: join(cairnHome, 'hooks.json'), layer: 'user', format: 'detect', cwd },
      // Cursor resolves the commands of a user-level file from ~/.cursor.
      { path: join(home, '.cursor/hooks.json'), layer: 'user', format: 'cursor', cwd: join(home, '.cursor') },
      { path: join(home, '.claude/settings.json'), layer: 'user', format: 'claude', cwd },
    );
  }
  return places;
}

/** Read the hooks files of the layers asked for; a missing file is no hooks, a broken one a ConfigurationError. */
export async function loadHookFiles(layers: HookFileLayers): Promise<LoadedHookFile[]> {
  const loaded: LoadedHookFile[] = [];
  for (const place of hookFilePlaces(layers)) {
    const text = await readFile(place.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw new ConfigurationError(`${place.path} cannot be read (${error.message}). Fix its permissions, or leave its layer out of local.settingSources.`);
    });
    if (text === undefined) continue;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ConfigurationError(`${place.path} is not valid JSON (${(error as Error).message}). Fix it, or leave its layer out of local.settingSources.`);
    }
    const parsed = parseHookFile(data, { file: place.path, layer: place.layer, cwd: place.cwd, format: place.format });
    if (!parsed || (parsed.commands.length === 0 && parsed.unsupported.length === 0)) continue;
    loaded.push({
      file: place.path,
      layer: place.layer,
      format: parsed.format,
      hash: createHash('sha256').update(stableJson(parsed.hooks)).digest('hex'),
      commands: parsed.commands.map((command) => `${command.nativeEvent}${command.matcher ? ` (${command.matcher})` : ''}: ${command.command}`),
      hookCommands: parsed.commands,
      unsupported: parsed.unsupported,
    });
  }
  return loaded;
}

/** JSON with sorted keys, so reformatting a file does not change its hash. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

